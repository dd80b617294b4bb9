/** Capped collections declared by the code (the same on every replica), by collection name. */
const declared = new Map<string, number>();

/**
 * Declare a capped collection (keep the newest `keep` records per workspace, by last write) when the
 * module that owns it loads, so that every replica, central included, trims it after records arrive
 * from elsewhere, even one that never writes the collection itself. Trims are local and never synced.
 * tx.trimLocal(coll, keep) trims on write and remembers the cap too.
 */
export function declareCap(coll: string, keep: number): void {
  declared.set(coll, keep);
}

export function declaredCap(coll: string): number | undefined {
  return declared.get(coll);
}
