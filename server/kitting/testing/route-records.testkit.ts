import { expect } from 'vitest';
import { fieldProblem } from '../http/collection-schema';
import { collectionSchemas } from '../modules';
import type { TestResponse, TestServer } from './harness.testkit';

/** The body of a call that must answer 200 (the answer's text is shown when it does not). */
export async function ok<T>(call: Promise<TestResponse<T>>): Promise<T> {
  const r = await call;
  expect(r.status, r.text).toBe(200);
  return r.body;
}

/**
 * Every record of these collections in a bench's workspace, checked as a push of all its fields: the
 * problems the push check finds (none, when the collection's schema accepts what its routes store) and the
 * collections that hold no record (a test that meant to write them did not).
 */
export async function storedRecordProblems(bench: TestServer, colls: readonly string[]): Promise<{ problems: string[]; empty: string[] }> {
  const ws = bench.ctx.benchWorkspace ?? '';
  const problems: string[] = [];
  const empty: string[] = [];
  for (const coll of colls) {
    const schema = collectionSchemas.find((s) => s.coll === coll);
    if (!schema) {
      problems.push(`${coll}: no schema`);
      continue;
    }
    const docs = await bench.store.list(ws, coll);
    if (docs.length === 0) empty.push(coll);
    for (const d of docs) {
      const id = String(d[schema.idField]);
      const p = fieldProblem(schema, id, d);
      if (p) problems.push(`${coll} ${id}: ${p.field} ${p.message}`);
    }
  }
  return { problems, empty };
}
