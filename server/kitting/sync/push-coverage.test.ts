/**
 * Every collection a bench pushes is checked against a declared schema (the field map its routes
 * validate with): a collection added to the push table without a schema fails here.
 */
import { describe, expect, it } from 'vitest';
import { collectionSchemas } from '../modules';
import { PUSHED_COLLECTIONS } from './push-policy';

describe('push schema coverage', () => {
  const declared = new Set(collectionSchemas.map((s) => s.coll));

  it('every pushed collection has a declared schema', () => {
    expect(PUSHED_COLLECTIONS.filter((c) => !declared.has(c))).toEqual([]);
  });

  it('every schema names a pushed collection', () => {
    expect([...declared].filter((c) => !PUSHED_COLLECTIONS.includes(c))).toEqual([]);
  });

  it('each schema is declared once', () => {
    expect(collectionSchemas.length).toBe(declared.size);
  });
});
