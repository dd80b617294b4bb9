import { createApiClient } from '../../../shared/api/client';

export type Role = 'admin' | 'sub';
export interface Session {
  role: Role;
  token: string;
}
const KEY = 'ks-admin-session';
function readSession(): Session | null {
  try {
    const s = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Session | null;
    return s && typeof s.token === 'string' ? s : null;
  } catch {
    return null;
  }
}
let session = readSession();
/** The signed-in admin or sub-admin (token kept in sessionStorage for this tab). */
export const getSession = (): Session | null => session;
export function setSession(s: Session | null): void {
  session = s;
  if (s) sessionStorage.setItem(KEY, JSON.stringify(s));
  else sessionStorage.removeItem(KEY);
}
export const api = createApiClient({ token: () => session?.token ?? null });
export const STATUS: Record<string, [string, string]> = { active: ['稼働中', 'c-green'], trial: ['トライアル', 'c-blue'], suspended: ['停止中', 'c-red'] };
