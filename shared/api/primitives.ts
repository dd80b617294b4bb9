/** Tolerant building blocks of the wire schemas (pure TypeScript, no node/DOM imports). */
import { z } from 'zod';

export const str = z.string();
/** Optional text; a null from the server reads as absent. */
export const optStr = z
  .string()
  .nullish()
  .transform((v) => v ?? undefined);
export const num = z.number();
/** Strings the server may also send as numbers (free-text fields). */
export const textish = z.union([z.string(), z.number()]).transform((v) => String(v));
