/**
 * Request pieces several domains share: record ids in the path and JSON-object bodies whose fields the
 * server reads with its own rules. Pure TypeScript: no node:, electron or DOM imports.
 */
import { z } from 'zod';

/** `:id` of a record route (job, ticket, invoice, quote …): 1..200 characters. */
export const idParams = z.object({ id: z.string().min(1).max(200) });
/** `:id` of a platform record (tenant, sub-admin, team member, request): 1..120 characters. */
export const shortIdParams = z.object({ id: z.string().min(1).max(120) });
/** `:tenantId` of the platform tools (backups, files, notes): 1..120 characters. */
export const tenantParams = z.object({ tenantId: z.string().min(1).max(120) });

/**
 * A JSON-object body whose fields the route reads one by one with rules that answer the contract's own
 * error strings (they live with the server, beside the route). The schema only requires an object;
 * `T` names the fields a client sends, and is what `z.input` reads for the client's request type.
 */
export function objectBody<T extends object>(): z.ZodType<Record<string, unknown>, T> {
  return z.record(z.string(), z.unknown(), { error: 'body must be a JSON object' }) as unknown as z.ZodType<Record<string, unknown>, T>;
}

/** An account's email as every sign-in and invite route reads it: trimmed, lower case, at most 160 characters. */
export const emailField = z
  .string({ error: 'email required' })
  .trim()
  .toLowerCase()
  .max(160, 'email too long')
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'invalid email');

/** A new password: 8..200 characters. */
export const passwordField = z.string({ error: 'password required' }).min(8, 'password too short').max(200, 'password too long');

/** Shortest password a platform account (admin master password, sub-admin) may have. */
export const PLATFORM_PASSWORD_MIN = 10;
