/**
 * A bench's certificate signing key on central: published once per workspace and key, with the alias of
 * the standalone workspace the bench signed certificates under before it enrolled (docs/certificates.md).
 */
import type { Store } from '../store/types';
import { CENTRAL_PUBLIC_URL_META, LOCAL_WS, publicKeyOf } from '../modules/certs/cert-keys';
import { ERASURE_CERTS } from '../modules/certs/certs.service';
import { SyncError, type Timed, type Transport } from './protocol';

/** Meta key: `<workspace> <kid> <alias>` of the certificate key central has published for this bench. */
export const CERT_KEY_SENT = 'sync_cert_key';
/** Meta key: the bench's standalone workspace id (`b-<16 hex>`) from before it joined a central workspace. */
export const STANDALONE_WS = 'bench_standalone_workspace';

export const certKeySent = (ws: string, kid: string, alias: string | null) => `${ws} ${kid} ${alias ?? ''}`;

/** The workspace a signed certificate record names (`ws` of the JWS payload), or null. */
function signedWorkspace(jws: string): string | null {
  try {
    const payload = JSON.parse(Buffer.from(jws.split('.')[1] ?? '', 'base64url').toString('utf8')) as { ws?: unknown };
    return typeof payload.ws === 'string' ? payload.ws : null;
  } catch {
    return null;
  }
}

/**
 * The standalone workspace id the bench signed certificates under before it enrolled: the current local
 * workspace (not enrolled yet), the one remembered at enrolment, or — for a bench that joined before that
 * was remembered — the workspace named in a certificate it signed with its own key.
 */
export async function standaloneWorkspace(store: Store, localWs: string | null, ws: string, kid: string): Promise<string | null> {
  if (localWs && LOCAL_WS.test(localWs)) return localWs;
  const kept = await store.meta(STANDALONE_WS);
  if (kept && LOCAL_WS.test(kept)) return kept;
  for (const cert of await store.list(ws, ERASURE_CERTS)) {
    const sig = cert.signature as { kid?: unknown; jws?: unknown } | undefined;
    if (sig?.kid !== kid || typeof sig.jws !== 'string') continue;
    const signedWs = signedWorkspace(sig.jws);
    if (signedWs && signedWs !== ws && LOCAL_WS.test(signedWs)) {
      await store.setMeta(STANDALONE_WS, signedWs);
      return signedWs;
    }
  }
  return null;
}

interface CertKeyContext {
  store: Store;
  transport: Transport;
  enrolment: { workspace: string; token: string };
  dataDir: string;
  schema: number;
  timed: <T extends Timed>(answer: T) => T;
}

/**
 * A bench enrolled before certificate keys existed publishes its key once (and learns central's public
 * address), with the alias of its standalone workspace when it signed certificates there.
 */
export async function sendCertKey(c: CertKeyContext): Promise<void> {
  const e = c.enrolment;
  if (!c.transport.certKey) return;
  const key = await publicKeyOf(c.dataDir);
  // Sent once per workspace and key (a bench that sent it without its alias, in `<ws> <kid>`, sends it again).
  if ((await c.store.meta(CERT_KEY_SENT))?.startsWith(certKeySent(e.workspace, key.kid, null))) return;
  const alias = await standaloneWorkspace(c.store, null, e.workspace, key.kid);
  const sent = certKeySent(e.workspace, key.kid, alias);
  const ans = await c.transport.certKey(e.token, { kid: key.kid, jwk: key.jwk, alias }, c.schema).catch((err: unknown) => {
    // A central of an older version has no such route: the bench keeps syncing and asks again next cycle.
    if (err instanceof SyncError && err.status === 404) return null;
    throw err;
  });
  if (!ans) return;
  c.timed(ans);
  if (typeof ans.publicUrl === 'string') await c.store.setMeta(CENTRAL_PUBLIC_URL_META, ans.publicUrl);
  await c.store.setMeta(CERT_KEY_SENT, sent);
}
