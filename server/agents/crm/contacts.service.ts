import { notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { newId } from '../ids';
import * as repo from './contacts.repository';
import type { PageOptions } from './table';

export { CONTACT_SORTS } from './contacts.repository';
export interface ContactInput {
  external_id?: string;
  email?: string;
  name?: string;
  phone?: string;
}

async function found(ctx: AgentsContext, ws: string, id: string) {
  const c = await repo.contactById(ctx.db, ws, id);
  if (!c) throw notFound('contact not found');
  return c;
}

export const pageContacts = (ctx: AgentsContext, ws: string, q: PageOptions<(typeof repo.CONTACT_SORTS)[number]>) => repo.pageContacts(ctx.db, ws, q);
export const exportContacts = (ctx: AgentsContext, ws: string, agentId: string | undefined, limit: number) => repo.listContacts(ctx.db, ws, agentId, limit);

export async function createContact(ctx: AgentsContext, ws: string, agentId: string | null, input: ContactInput) {
  const id = newId('ct');
  const now = Date.now();
  await repo.insertContact(ctx.db, { id, workspace_id: ws, agent_id: agentId, ...input, created_at: now, updated_at: now });
  return found(ctx, ws, id);
}

export async function updateContact(ctx: AgentsContext, ws: string, id: string, input: ContactInput) {
  if (!(await repo.updateContact(ctx.db, ws, id, { ...input, updated_at: Date.now() }))) throw notFound('contact not found');
  return found(ctx, ws, id);
}

export async function removeContact(ctx: AgentsContext, ws: string, id: string): Promise<void> {
  if (!(await repo.deleteContact(ctx.db, ws, id))) throw notFound('contact not found');
}
