import { randomBytes } from 'node:crypto';

/** A generated id: the prefix, the time in base 36 and `bytes` random bytes in hex (job-…, ac-…, msg-…). */
export function randomKey(prefix: string, bytes = 6): string {
  return `${prefix}${Date.now().toString(36)}${randomBytes(bytes).toString('hex')}`;
}
