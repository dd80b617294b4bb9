import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { privateDir, writePrivateFile } from '../../core/security/private-files';
import { join } from 'node:path';
import type { AgentsConfig } from '../config';

/** Stored credentials: AES-256-GCM, `v1:<base64 iv(12) | tag(16) | ciphertext>`. */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

function parseKey(raw: string): Buffer {
  const s = raw.trim();
  const key = /^[0-9a-f]{64}$/i.test(s) ? Buffer.from(s, 'hex') : Buffer.from(s, 'base64');
  if (key.length !== 32) throw new Error('AGENTS_SECRETS_KEY must be 32 bytes (64 hex characters or base64)');
  return key;
}

/** The key: AGENTS_SECRETS_KEY, else `<data>/secrets.key` generated on first use (mode 0600). */
function secretsKey(config: AgentsConfig): Buffer {
  if (config.secretsKey) return parseKey(config.secretsKey);
  privateDir(config.dataDir);
  const file = join(config.dataDir, 'secrets.key');
  if (existsSync(file)) {
    chmodSync(file, 0o600);
    return parseKey(readFileSync(file, 'utf8'));
  }
  const key = randomBytes(32);
  writePrivateFile(file, key.toString('hex'));
  return key;
}

export function createSecretBox(key: Buffer): SecretBox {
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return `v1:${Buffer.concat([iv, c.getAuthTag(), ct]).toString('base64')}`;
    },
    open(sealed) {
      if (!sealed.startsWith('v1:')) throw new Error('unknown secret format');
      const buf = Buffer.from(sealed.slice(3), 'base64');
      const d = createDecipheriv('aes-256-gcm', key, buf.subarray(0, 12));
      d.setAuthTag(buf.subarray(12, 28));
      return Buffer.concat([d.update(buf.subarray(28)), d.final()]).toString('utf8');
    },
  };
}

const boxes = new WeakMap<AgentsConfig, SecretBox>();
/** One box per configuration (the key file is read once). */
export function secretBox(config: AgentsConfig): SecretBox {
  let b = boxes.get(config);
  if (!b) boxes.set(config, (b = createSecretBox(secretsKey(config))));
  return b;
}

/** Sealed values carry this prefix; TOTP secrets (base32) and webhook secrets (whsec_…) never do. */
export const isSealed = (stored: string): boolean => stored.startsWith('v1:');

/** Seal a secret for storage with the platform's key (TOTP secrets, webhook signing secrets, credentials). */
export const sealSecret = (config: AgentsConfig, plain: string): string => secretBox(config).seal(plain);

/** The plain secret of a stored value; a value written before secrets were sealed is read as it is. */
export const openSecret = (config: AgentsConfig, stored: string): string => (isSealed(stored) ? secretBox(config).open(stored) : stored);
