import type { Client, TestServer } from '../../testing/harness';

export type Body = Record<string, unknown> & { ok: boolean; error?: string; message?: string };
export const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

/** A new account that owns a new workspace (signed up from a fresh browser). */
export async function signUp(server: TestServer, email: string, password = 'attack-pass-1'): Promise<{ c: Client; token: string; ws: string; auth: Record<string, string> }> {
  const c = server.client();
  const r = await c.post<{ token: string; adoptedTenant: string }>('/api/account/signup', { email, password });
  if (r.status !== 200) throw new Error(`signup ${email}: ${r.status} ${r.text}`);
  return { c, token: r.body.token, ws: r.body.adoptedTenant, auth: bearer(r.body.token) };
}

/** Invite and accept: a member of the owner's workspace with this role, signed in from its own browser. */
export async function addMember(server: TestServer, owner: Record<string, string>, email: string, role: string) {
  const inv = await server.client().post<{ token: string; member: { id: string } }>('/api/team/invite', { email, role }, owner);
  if (inv.status !== 200) throw new Error(`invite ${email}: ${inv.status} ${inv.text}`);
  const c = server.client();
  const ok = await c.post<{ token: string }>('/api/team/accept', { inviteToken: inv.body.token, email, password: 'attack-pass-1' });
  if (ok.status !== 200) throw new Error(`accept ${email}: ${ok.status} ${ok.text}`);
  return { c, token: ok.body.token, auth: bearer(ok.body.token), memberId: inv.body.member.id };
}
