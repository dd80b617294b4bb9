import { randomBytes } from 'node:crypto';
import { resolveCname as dnsResolveCname, resolveTxt as dnsResolveTxt } from 'node:dns/promises';
import type { AgentsContext } from '../context';
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

export interface DomainRow {
  id: string;
  workspace_id: string;
  agent_id: string | null;
  domain: string;
  status: 'checking' | 'active' | 'misconfigured';
  error: string | null;
  cname: string | null;
  checked_at: number | null;
  verified_at: number | null;
  created_at: number;
  verify_token: string;
}

/** The name of the TXT record that proves a workspace's claim on a domain. */
export const verifyName = (domain: string) => `_agent-verify.${domain}`;
/** A new claim's token: the value the workspace puts in its TXT record. */
export const newVerifyToken = () => randomBytes(16).toString('hex');

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
  ctx.legacyDb.transaction(() => {
    // the proven owner wins: every other claim on the name goes
    if (ok) ctx.legacyDb.prepare('DELETE FROM domains WHERE domain = ? AND id <> ?').run(d.domain, d.id);
    ctx.legacyDb
      .prepare('UPDATE domains SET status = ?, error = ?, cname = ?, checked_at = ?, verified_at = CASE WHEN ? = 1 THEN COALESCE(verified_at, ?) ELSE NULL END, updated_at = ? WHERE id = ?')
      .run(status, error, answers[0] ?? null, now, ok ? 1 : 0, now, now, d.id);
  })();
}
