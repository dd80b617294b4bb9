import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

/** The contract modules (shared/api/contracts/*.ts) whose file names start with one of these prefixes. */
export async function contractModules(prefixes: readonly string[]): Promise<object[]> {
  const dir = resolve(import.meta.dirname, '../../../shared/api/contracts');
  const names = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && prefixes.some((p) => f.startsWith(p)));
  return Promise.all(names.map((f) => import(join(dir, f)) as Promise<object>));
}

/** Every zod schema the modules export, directly or inside an exported object (`webhooksRequests['POST /api/webhooks'].body`). */
export function exportedSchemas(modules: readonly object[]): Set<z.ZodType> {
  const found = new Set<z.ZodType>();
  const walk = (v: unknown, depth: number) => {
    if (v instanceof z.ZodType) found.add(v);
    else if (v && typeof v === 'object' && depth < 3) for (const inner of Object.values(v)) walk(inner, depth + 1);
  };
  for (const m of modules) for (const v of Object.values(m)) walk(v, 0);
  return found;
}

interface RequestParts {
  method: string;
  path: string;
  body?: unknown;
  query?: unknown;
  params?: unknown;
}

/** `METHOD path part` of each request schema of these routes that is not one of the shared schemas. */
export function ownRequestSchemas(routes: readonly RequestParts[], shared: Set<z.ZodType>): string[] {
  return routes.flatMap((r) =>
    Object.entries({ body: r.body, query: r.query, params: r.params })
      .filter(([, schema]) => schema !== undefined && !shared.has(schema as z.ZodType))
      .map(([part]) => `${r.method.toUpperCase()} ${r.path} ${part}`),
  );
}
