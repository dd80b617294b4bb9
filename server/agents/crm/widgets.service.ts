import { conflict, notFound } from '../../core/errors';
import { isUniqueViolation } from '../../core/db/errors';
import type { AgentsContext } from '../context';
import { newId } from '../ids';
import * as attributes from './attributes.repository';
import * as builder from './builder-widgets.repository';
import { saveWidgetConfig } from './widget.repository';
import type { WidgetConfig } from './widget';

export const listAttributes = (ctx: AgentsContext, ws: string, agentId: string | undefined) => attributes.listAttributes(ctx.db, ws, agentId, 1000);

export async function createAttribute(ctx: AgentsContext, ws: string, agentId: string | null, input: { name: string; type: string; label: string; description?: string }) {
  if (await attributes.attributeNamed(ctx.db, ws, agentId, input.name)) throw conflict('attribute already exists');
  const id = newId('attr');
  try {
    await attributes.insertAttribute(ctx.db, { id, workspace_id: ws, agent_id: agentId, ...input, created_at: Date.now() });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('attribute already exists');
    throw err;
  }
  const a = await attributes.attributeById(ctx.db, ws, id);
  if (!a) throw notFound('attribute not found');
  return a;
}

export async function removeAttribute(ctx: AgentsContext, ws: string, id: string): Promise<void> {
  if (!(await attributes.deleteAttribute(ctx.db, ws, id))) throw notFound('attribute not found');
}

export const saveWidget = (ctx: AgentsContext, ws: string, agentId: string, config: WidgetConfig) => saveWidgetConfig(ctx.db, ws, agentId, JSON.stringify(config));

export interface BuilderWidgetInput {
  name?: string;
  code?: string;
  schema?: unknown;
  functions?: unknown;
  states?: unknown;
  mode?: string;
}

const json = (v: unknown) => (v === undefined ? undefined : JSON.stringify(v));
const columns = (input: BuilderWidgetInput) => ({
  name: input.name, code: input.code, schema: json(input.schema), functions: json(input.functions), states: json(input.states), mode: input.mode,
});

export const listBuilderWidgets = (ctx: AgentsContext, ws: string, agentId: string | undefined) => builder.listBuilderWidgets(ctx.db, ws, agentId, 500);

export async function builderWidget(ctx: AgentsContext, ws: string, id: string) {
  const w = await builder.builderWidgetById(ctx.db, ws, id);
  if (!w) throw notFound('widget not found');
  return w;
}

export async function createBuilderWidget(ctx: AgentsContext, ws: string, agentId: string, input: BuilderWidgetInput) {
  const id = newId('wdg');
  const now = Date.now();
  await builder.insertBuilderWidget(ctx.db, { id, workspace_id: ws, agent_id: agentId, ...columns(input), created_at: now, updated_at: now });
  return builderWidget(ctx, ws, id);
}

export async function updateBuilderWidget(ctx: AgentsContext, ws: string, id: string, input: BuilderWidgetInput) {
  if (!(await builder.updateBuilderWidget(ctx.db, ws, id, { ...columns(input), updated_at: Date.now() }))) throw notFound('widget not found');
  return builderWidget(ctx, ws, id);
}

export async function removeBuilderWidget(ctx: AgentsContext, ws: string, id: string): Promise<void> {
  if (!(await builder.deleteBuilderWidget(ctx.db, ws, id))) throw notFound('widget not found');
}
