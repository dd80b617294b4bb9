import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contracts from '../../../shared/api/schemas';
import type { RouteDef } from '../../core/http/define-route';
import { allRoutes } from '../modules';

/** Every zod schema the contracts export, directly or inside an exported object (`deviceRequests.create`). */
function exportedSchemas(): Set<z.ZodType> {
  const found = new Set<z.ZodType>();
  const walk = (v: unknown, depth: number) => {
    if (v instanceof z.ZodType) found.add(v);
    else if (v && typeof v === 'object' && depth < 3) for (const inner of Object.values(v)) walk(inner, depth + 1);
  };
  for (const v of Object.values(contracts)) walk(v, 0);
  return found;
}

const shared = exportedSchemas();
const key = (r: RouteDef) => `${r.method.toUpperCase()} ${r.path}`;

/** The request schemas of a route that are not exported from shared/api/contracts. */
function ownSchemas(r: RouteDef): string[] {
  const parts = { body: r.body, query: r.query, params: r.params };
  return Object.entries(parts)
    .filter(([, schema]) => schema !== undefined && !shared.has(schema))
    .map(([part]) => `${key(r)} ${part}`);
}

describe('request contracts', () => {
  it('finds the contracts the converted routes use', () => {
    expect(shared.size).toBeGreaterThan(50);
  });

  it('every route takes its body, query and params schemas from shared/api/contracts', () => {
    expect(allRoutes.flatMap(ownSchemas)).toEqual([]);
  });
});
