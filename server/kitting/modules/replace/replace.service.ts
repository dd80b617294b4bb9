/** Replacement proposals: the one record that maps each customer to the time of its last proposal. */
export const REPLACE = 'replace';
export const PROPOSALS_ID = 'proposals';

/** Customer → time of its last proposal, oldest first (a store may not keep a document's key order). */
export const mapOf = (d: Record<string, unknown> | null): Record<string, string> =>
  Object.fromEntries(Object.entries((d?.map as Record<string, string> | undefined) ?? {}).sort(([, a], [, b]) => (a < b ? -1 : a > b ? 1 : 0)));
