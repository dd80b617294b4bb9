import { randomBytes } from 'node:crypto';
import { resolveCname as dnsResolveCname, resolveTxt as dnsResolveTxt } from 'node:dns/promises';
import type { AgentsContext } from '../context';
import { badRequest, conflict, notFound } from '../../core/errors';
import { isUniqueViolation } from '../../core/db/errors';
import { newId } from '../ids';
import { countDomains, deleteDomain, deleteOtherClaims, domainById, domainNamed, insertDomain, listDomains, recordCheck } from './domains.repository';
import { norm } from '../../../shared/api/contracts/agents-workspace-settings-requests';

/** CNAME lookup; injectable so tests answer without the network. */
export type CnameResolver = (host: string) => Promise<string[]>;
export const systemCnameResolver: CnameResolver = (host) => dnsResolveCname(host);
/** TXT lookup (each record as its character strings); injectable so tests answer without the network. */
export type TxtResolver = (host: string) => Promise<string[][]>;
export const systemTxtResolver: TxtResolver = (host) => dnsResolveTxt(host);

export interface DomainDns {
  cname: CnameResolver;
  txt: TxtResolver;
}

export type DomainRow = NonNullable<Awaited<ReturnType<typeof domainById>>>;

/** The name of the TXT record that proves a workspace's claim on a domain. */
export const verifyName = (domain: string) => `_agent-verify.${domain}`;
/** A new claim's token: the value the workspace puts in its TXT record. */
const newVerifyToken = () => randomBytes(16).toString('hex');

async function lookup<T>(run: () => Promise<T[]>): Promise<{ answers: T[]; failure: string | null }> {
  try {
    return { answers: await run(), failure: null };
  } catch (err) {
    const code = (err as { code?: string }).code;
    return { answers: [], failure: code === 'ENODATA' || code === 'ENOTFOUND' ? null : `DNS lookup failed (${code ?? 'error'})` };
  }
}

/**
 * Check one claim by DNS: the TXT record `_agent-verify.<domain>` must hold this claim's token (ownership, per
 * workspace) and the domain must CNAME to the platform's target (routing). Both hold: the claim is verified and
 * every other workspace's claim on the name is dropped. Otherwise the claim stays unverified with the reason.
 */
export async function verifyClaim(ctx: AgentsContext, dns: DomainDns, d: DomainRow, target: string): Promise<void> {
  const [cname, txt] = await Promise.all([lookup(() => dns.cname(d.domain)), lookup(() => dns.txt(verifyName(d.domain)))]);
  const answers = cname.answers.map(norm);
  const routed = answers.includes(target);
  const owned = txt.answers.some((chunks) => chunks.join('').trim() === d.verify_token);
  const ok = routed && owned;
  const status = ok ? 'active' : answers.length && !routed ? 'misconfigured' : 'checking';
  const error = ok
    ? null
    : answers.length && !routed
      ? `CNAME points to ${answers.join(', ')}, expected ${target}`
      : !answers.length
        ? (cname.failure ?? 'no CNAME record found yet')
        : (txt.failure ?? `TXT record ${verifyName(d.domain)} with this workspace's token not found yet`);
  const now = Date.now();
  await ctx.db.transaction().execute(async (tx) => {
    // the proven owner wins: every other claim on the name goes
    if (ok) await deleteOtherClaims(tx, d.domain, d.id);
    await recordCheck(tx, d.id, { status, error, cname: answers[0] ?? null, verified: ok, now });
  });
}

const MAX_DOMAINS = 10;

export async function domainClaim(ctx: AgentsContext, ws: string, id: string): Promise<DomainRow> {
  const d = await domainById(ctx.db, ws, id);
  if (!d) throw notFound('domain not found');
  return d;
}

export const listDomainClaims = (ctx: AgentsContext, ws: string, agentId: string | null) => listDomains(ctx.db, ws, agentId);

/**
 * The workspace claims a domain name for an agent. Another workspace's claim never blocks this one: the claim that
 * proves ownership by DNS wins (verifyClaim). A second claim of the same workspace is refused by the unique index.
 */
export async function addDomainClaim(ctx: AgentsContext, ws: string, agentId: string, domain: string): Promise<DomainRow> {
  if (await domainNamed(ctx.db, ws, domain)) throw conflict('domain already added');
  if ((await countDomains(ctx.db, ws)) >= MAX_DOMAINS) throw badRequest(`at most ${MAX_DOMAINS} domains per workspace`);
  const id = newId('dom');
  const now = Date.now();
  try {
    await insertDomain(ctx.db, { id, workspace_id: ws, agent_id: agentId, domain, status: 'checking', created_at: now, updated_at: now, verify_token: newVerifyToken() });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('domain already added');
    throw err;
  }
  return domainClaim(ctx, ws, id);
}

export async function removeDomainClaim(ctx: AgentsContext, ws: string, id: string): Promise<void> {
  if (!(await deleteDomain(ctx.db, ws, id))) throw notFound('domain not found');
}
