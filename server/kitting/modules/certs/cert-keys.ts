import { generateKeyPairSync, createPrivateKey, type KeyObject } from 'node:crypto';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { calculateJwkThumbprint } from 'jose';
import type { AppContext } from '../../context';
import { declareLookup } from '../../store/lookups';
import type { Doc } from '../../store/types';
import { PLATFORM_WS } from '../platform-collections';
import { kittingPublicUrl } from '../../config';

/**
 * Certificate signing keys. Every bench (and every central process) has one Ed25519 key pair, made at
 * first use in its data folder (mode 0600). The private key lives only in that file: it is never written
 * to the store, so no sync push, snapshot, backup export or log can carry it. Central publishes each
 * workspace's public keys (registered at enrolment) as a JWKS; a retired bench's keys stay published,
 * marked retired, so the certificates it issued before keep verifying.
 */
export const SIGNING_KEY_FILE = 'cert-signing-key.json';
/** Bench meta: central's public address, learnt at enrolment (the base of printed verification links). */
export const CENTRAL_PUBLIC_URL_META = 'central_public_url';
const CERT_KEYS = 'certKeys';
const KEYS_BY_WS = declareLookup(CERT_KEYS, 'ws');

/** A public key as published: an Ed25519 JWK with its key id and, once retired, when. */
export interface PublishedKey {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
  /** The bench that holds the private key ('central' for a central process). */
  bench?: string;
  retired?: true;
  retiredAt?: string;
}

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicJwk: { kty: 'OKP'; crv: 'Ed25519'; x: string };
}

const B64URL = /^[A-Za-z0-9_-]+$/;
const cache = new Map<string, Promise<SigningKey>>();

function readKeyFile(path: string): SigningKey | null {
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  const jwk = JSON.parse(raw) as { kty?: string; crv?: string; x?: string; d?: string; kid?: string };
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string' || typeof jwk.d !== 'string' || typeof jwk.kid !== 'string') {
    throw new Error(`${path}: not an Ed25519 signing key`);
  }
  // The file was made 0600; a copy widened by hand is narrowed again.
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  return {
    kid: jwk.kid,
    privateKey: createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x, d: jwk.d }, format: 'jwk' }),
    publicJwk: { kty: 'OKP', crv: 'Ed25519', x: jwk.x },
  };
}

async function loadOrCreate(dataDir: string): Promise<SigningKey> {
  const path = join(dataDir, SIGNING_KEY_FILE);
  const existing = readKeyFile(path);
  if (existing) return existing;
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' }) as { x: string; d: string };
  const publicJwk = { kty: 'OKP' as const, crv: 'Ed25519' as const, x: jwk.x };
  const kid = await calculateJwkThumbprint(publicJwk, 'sha256');
  try {
    // 'wx': a key is created once and never overwritten (another process may have won the race).
    writeFileSync(path, JSON.stringify({ ...publicJwk, d: jwk.d, kid }), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    const again = readKeyFile(path);
    if (again) return again;
    throw err;
  }
  return { kid, privateKey, publicJwk };
}

/** This machine's signing key (made on first use in the data folder). */
export function signingKey(dataDir: string): Promise<SigningKey> {
  let p = cache.get(dataDir);
  if (!p) {
    p = loadOrCreate(dataDir).catch((err: unknown) => {
      cache.delete(dataDir);
      throw err;
    });
    cache.set(dataDir, p);
  }
  return p;
}

/** The public half a bench sends at enrolment. */
export async function publicKeyOf(dataDir: string): Promise<{ kid: string; jwk: SigningKey['publicJwk'] }> {
  const k = await signingKey(dataDir);
  return { kid: k.kid, jwk: k.publicJwk };
}

/** Is this a well-formed Ed25519 public key whose kid is its RFC 7638 thumbprint? */
export async function validPublicKey(kid: unknown, jwk: unknown): Promise<boolean> {
  if (typeof kid !== 'string' || !B64URL.test(kid) || kid.length !== 43) return false;
  if (!jwk || typeof jwk !== 'object') return false;
  const j = jwk as Doc;
  if (j.kty !== 'OKP' || j.crv !== 'Ed25519' || typeof j.x !== 'string' || !B64URL.test(j.x) || j.x.length !== 43 || 'd' in j) return false;
  return (await calculateJwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: j.x }, 'sha256')) === kid;
}

/** The address verification links point to: central's own KITTING_PUBLIC_URL, or on a bench the one central named at enrolment. */
export async function certPublicUrl(app: AppContext): Promise<string | null> {
  if (app.mode === 'bench') {
    const learnt = await app.store.meta(CENTRAL_PUBLIC_URL_META);
    if (learnt) return learnt;
  }
  return kittingPublicUrl();
}

const keyId = (ws: string, kid: string) => `${ws}~${kid}`;

/** The form of a standalone bench's own workspace id (server/kitting/app.ts benchWorkspace). */
export const LOCAL_WS = /^b-[0-9a-f]{16}$/;

/**
 * Publish a public key for a workspace (idempotent; a registration never overwrites another). A bench
 * that signed certificates standalone names its former local workspace (`alias`): its key is published
 * under that id too, pointing at the workspace it joined, so those certificates keep verifying. An alias
 * is only ever a local bench id that is no workspace here and no other workspace's alias.
 */
export async function registerKey(app: AppContext, ws: string, kid: string, jwk: SigningKey['publicJwk'], bench: string, alias?: string | null): Promise<boolean> {
  const now = Date.now();
  const useAlias = typeof alias === 'string' && alias !== ws && LOCAL_WS.test(alias) && !(await app.store.workspace(alias));
  return app.store.transact(PLATFORM_WS, async (tx) => {
    const id = keyId(ws, kid);
    if (!(await tx.get(CERT_KEYS, id))) await tx.put(CERT_KEYS, id, { id, ws, kid, x: jwk.x, bench, created: now });
    if (!useAlias || !alias) return false;
    const aid = keyId(alias, kid);
    const cur = await tx.get<Doc>(CERT_KEYS, aid);
    if (cur) return false;
    const others = await tx.find<Doc>(CERT_KEYS, KEYS_BY_WS.field, alias);
    if (others.some((o) => o.aliasOf !== ws)) return false;
    await tx.put(CERT_KEYS, aid, { id: aid, ws: alias, aliasOf: ws, kid, x: jwk.x, bench, created: now });
    return true;
  });
}

/** The workspace a record signed under `recordWs` with `kid` belongs to here (itself, or the one its bench joined). */
export async function homeWorkspace(app: AppContext, recordWs: string, kid: string): Promise<string> {
  const row = await app.store.get<Doc>(PLATFORM_WS, CERT_KEYS, keyId(recordWs, kid));
  return typeof row?.aliasOf === 'string' ? row.aliasOf : recordWs;
}

/** A revoked bench's keys stay published, marked retired from now on. */
export async function retireBenchKeys(app: AppContext, ws: string, bench: string): Promise<number> {
  let n = 0;
  for (const row of await app.store.find<Doc>(PLATFORM_WS, CERT_KEYS, KEYS_BY_WS.field, ws)) {
    if (row.bench !== bench || typeof row.retiredAt === 'number') continue;
    await app.store.transact(PLATFORM_WS, (tx) => tx.patch(CERT_KEYS, String(row.id), { retiredAt: Date.now() }));
    n += 1;
  }
  return n;
}

function published(row: Doc): PublishedKey {
  const k: PublishedKey = { kty: 'OKP', crv: 'Ed25519', x: String(row.x), kid: String(row.kid), alg: 'EdDSA', use: 'sig' };
  if (typeof row.bench === 'string') k.bench = row.bench;
  if (typeof row.retiredAt === 'number') Object.assign(k, { retired: true, retiredAt: new Date(row.retiredAt).toISOString() });
  return k;
}

/**
 * The public keys a workspace's certificates verify against: those registered with this server, and on
 * a bench its own key for its own workspace (a standalone bench signs too).
 */
export async function workspaceKeys(app: AppContext, ws: string): Promise<PublishedKey[]> {
  const keys = (await app.store.find<Doc>(PLATFORM_WS, CERT_KEYS, KEYS_BY_WS.field, ws)).map(published);
  if (app.mode === 'bench' && ws === app.benchWorkspace) {
    const own = await signingKey(app.config.dataDir);
    if (!keys.some((k) => k.kid === own.kid)) keys.push({ ...own.publicJwk, kid: own.kid, alg: 'EdDSA', use: 'sig', bench: app.store.node });
  }
  return keys;
}

/** Central's own key (certificates issued on central) is published for the workspace it signs for. */
const publishedFor = new WeakMap<AppContext, Set<string>>();
export async function ensureOwnKeyPublished(app: AppContext, ws: string): Promise<SigningKey> {
  const key = await signingKey(app.config.dataDir);
  if (app.mode !== 'central') return key;
  let done = publishedFor.get(app);
  if (!done) publishedFor.set(app, (done = new Set()));
  if (!done.has(ws)) {
    await registerKey(app, ws, key.kid, key.publicJwk, 'central');
    done.add(ws);
  }
  return key;
}

