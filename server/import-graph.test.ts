import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The import graph of the repository's own code (server, shared, electron, renderer), read with the
 * TypeScript pre-processor: every static import, `export … from`, `import type` and dynamic import()
 * of a relative path is an edge.
 */
const ROOT = resolve(import.meta.dirname, '..');
const ROOTS = ['server', 'shared', 'electron', 'renderer/src'];
const SKIP = new Set(['node_modules', 'dist', 'migrations', 'pg-migrations']);
const EXTS = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];

interface Edge {
  to: string;
  dynamic: boolean;
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(join(ROOT, dir))) {
    if (SKIP.has(name)) continue;
    const rel = `${dir}/${name}`;
    if (statSync(join(ROOT, rel)).isDirectory()) sourceFiles(rel, out);
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

function resolveSpec(from: string, spec: string): string | null {
  const base = join(dirname(from), spec.split('?')[0]);
  for (const ext of EXTS) {
    const p = base + ext;
    if (/\.tsx?$/.test(p) && existsSync(join(ROOT, p)) && statSync(join(ROOT, p)).isFile()) return relative(ROOT, join(ROOT, p)).split('\\').join('/');
  }
  return null;
}

function readGraph(): Map<string, Edge[]> {
  const graph = new Map<string, Edge[]>();
  for (const file of ROOTS.flatMap((r) => sourceFiles(r))) {
    const src = readFileSync(join(ROOT, file), 'utf8');
    const info = ts.preProcessFile(src, true, true);
    // a module loaded at run time (not `typeof import('…')` or `import('…').Type`, which are types)
    const dynamic = new Set([...src.matchAll(/(?<!typeof\s*)\bimport\(\s*['"]([^'"]+)['"]\s*\)(?!\s*\.[A-Z])/g)].map((m) => m[1]));
    const edges: Edge[] = [];
    for (const imp of info.importedFiles) {
      if (!imp.fileName.startsWith('.')) continue;
      const to = resolveSpec(file, imp.fileName);
      if (to) edges.push({ to, dynamic: dynamic.has(imp.fileName) });
    }
    graph.set(file, edges);
  }
  return graph;
}

/** Every strongly connected group of two or more files (or a file importing itself): each one is a cycle. */
export function findCycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return cycles;
}

const APPS = ['server/kitting/', 'server/studio/', 'server/agents/'];

/**
 * Test-only code: every module a test needs besides the test itself (fakes, harnesses, stores for tests,
 * fixture builders) is named `*.testkit.ts`; vitest's own setup files keep the names vitest.config.ts gives them.
 */
const isTestFile = (f: string) => /\.test\.tsx?$/.test(f);
const isTestkit = (f: string) => /\.testkit\.tsx?$/.test(f);
const VITEST_SETUP = ['e2e/global-setup.ts', 'server/core/testing/pg-global-setup.ts', 'server/core/testing/response-contracts.ts'];
/**
 * Files of branches being moved in parallel (the studio's rewrite, the store's move), and the old paths of three
 * core helpers the studio's tests still import (each re-exports its `.testkit.ts`). Each leaves this list when it is renamed.
 */
const PENDING = new Set<string>([
]);
const testOnly = (f: string) => isTestFile(f) || isTestkit(f) || f.startsWith('e2e/') || f.startsWith('perf/') || VITEST_SETUP.includes(f) || PENDING.has(f);

/** Edges from production code (anything but tests, testkits, e2e/, perf/ and vitest's setup) to a test or a testkit. */
export function productionImportsOfTests(graph: Map<string, string[]>): string[] {
  return [...graph]
    .filter(([from]) => !testOnly(from))
    .flatMap(([from, tos]) => tos.filter((to) => isTestFile(to) || isTestkit(to)).map((to) => `${from} → ${to}`));
}

/** Files named like test helpers (`fake-*`, `*-fake*`, `test-*`, `testing.ts`, anything in a `testing/` or `sim/` folder) that are not `*.testkit.ts`. */
export function misnamedHelpers(files: readonly string[]): string[] {
  const helperLike = (f: string) => {
    const name = f.slice(f.lastIndexOf('/') + 1);
    return /^fake-|-fake|^test-|^testing\.tsx?$|^mock-|-mock/.test(name) || /(^|\/)(testing|sim)\//.test(f);
  };
  return files.filter((f) => !isTestFile(f) && !isTestkit(f) && !VITEST_SETUP.includes(f) && !PENDING.has(f) && helperLike(f));
}

describe('import graph', () => {
  const graph = readGraph();
  const plain = new Map([...graph].map(([k, v]) => [k, v.map((e) => e.to)]));

  it('reads the whole code base', () => {
    expect(graph.size).toBeGreaterThan(300);
    expect(plain.get('server/kitting/app.ts')).toContain('server/core/http/error-handler.ts');
  });

  it('finds a cycle when there is one (the checker itself)', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(findCycles(g)).toEqual([['a', 'b', 'c']]);
    expect(findCycles(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
  });

  it('has no circular import', () => {
    expect(findCycles(plain)).toEqual([]);
  });

  it('loads no server module of its own lazily (no dynamic import of a relative path outside tests)', () => {
    const lazy = [...graph]
      .filter(([from]) => from.startsWith('server/') && !from.endsWith('.test.ts'))
      .flatMap(([from, edges]) => edges.filter((e) => e.dynamic).map((e) => `${from} → ${e.to}`));
    expect(lazy).toEqual([]);
  });

  it('keeps the server core free of any app (kitting, studio, agents)', () => {
    const up = [...plain]
      .filter(([from]) => from.startsWith('server/core/'))
      .flatMap(([from, tos]) => tos.filter((to) => APPS.some((a) => to.startsWith(a))).map((to) => `${from} → ${to}`));
    expect(up).toEqual([]);
  });

  it('keeps every app setting name out of the server core (no KITTING_, AGENTS_ or STUDIO_ outside its tests)', () => {
    const files = (dir: string): string[] =>
      readdirSync(join(ROOT, dir)).flatMap((name) => (statSync(join(ROOT, dir, name)).isDirectory() ? files(`${dir}/${name}`) : [`${dir}/${name}`]));
    const core = files('server/core').filter((f) => !f.endsWith('.test.ts'));
    expect(core.length).toBeGreaterThan(20);
    const named = core.flatMap((f) => [...readFileSync(join(ROOT, f), 'utf8').matchAll(/\b(?:KITTING|AGENTS|STUDIO)_[A-Z0-9_]*/g)].map((m) => `${f}: ${m[0]}`));
    expect(named).toEqual([]);
  });

  it('keeps route files apart: no *.routes.ts of kitting, studio or agents imports another one (shared logic lives in services and schemas)', () => {
    const routeFile = (f: string) => APPS.some((a) => f.startsWith(a)) && f.endsWith('.routes.ts');
    const across = [...plain]
      .filter(([from]) => routeFile(from))
      .flatMap(([from, tos]) => tos.filter(routeFile).map((to) => `${from} → ${to}`));
    expect(across).toEqual([]);
  });

  it('keeps HTTP errors in the HTTP layer: services, store and security throw server/core/errors.ts, which imports nothing', () => {
    // The one exception relays another service's HTTP status as it came (the sync client's refusals from central).
    const RELAYS = new Set(['server/kitting/sync/endpoints.ts']);
    const reach = [...plain]
      .filter(([from]) => !from.startsWith('server/core/http/') && !RELAYS.has(from))
      .flatMap(([from, tos]) => tos.filter((to) => to === 'server/core/http/errors.ts').map((to) => `${from} → ${to}`));
    expect(reach).toEqual([]);
    expect(plain.get('server/core/errors.ts')).toEqual([]);
    expect(readFileSync(join(ROOT, 'server/core/errors.ts'), 'utf8')).not.toMatch(/^import /m);
  });

  it('finds a production import of a testkit and a misnamed helper when there is one (the checker itself)', () => {
    const g = new Map([
      ['server/a/service.ts', ['server/a/fake-mailer.testkit.ts', 'server/a/util.ts']],
      ['server/a/util.ts', ['server/a/service.test.ts']],
      ['server/a/service.test.ts', ['server/a/fake-mailer.testkit.ts', 'server/a/service.ts']],
      ['server/a/fake-mailer.testkit.ts', ['server/a/service.ts']],
      ['e2e/bench.test.ts', ['e2e/harness.testkit.ts']],
      ['perf/api.bench.ts', ['server/a/fake-mailer.testkit.ts']],
    ]);
    expect(productionImportsOfTests(g)).toEqual(['server/a/service.ts → server/a/fake-mailer.testkit.ts', 'server/a/util.ts → server/a/service.test.ts']);
    expect(misnamedHelpers(['server/a/fake-mail.ts', 'server/a/mail-fake.ts', 'server/a/test-store.ts', 'server/a/testing.ts', 'server/a/testing/harness.ts', 'server/a/sync/sim/world.ts', 'server/a/fake-mail.testkit.ts', 'server/a/testing/harness.testkit.ts', 'server/a/service.ts', 'server/a/service.test.ts'])).toEqual([
      'server/a/fake-mail.ts',
      'server/a/mail-fake.ts',
      'server/a/test-store.ts',
      'server/a/testing.ts',
      'server/a/testing/harness.ts',
      'server/a/sync/sim/world.ts',
    ]);
  });

  it('keeps test code out of production: no production file imports a *.testkit.ts or a *.test.ts', () => {
    expect(productionImportsOfTests(plain)).toEqual([]);
  });

  it('names every test helper *.testkit.ts (no fake-*, test-*, testing.ts or testing/ file under another name)', () => {
    const all = [...graph.keys(), ...['e2e', 'perf', 'seeds'].flatMap((r) => sourceFiles(r))];
    expect(misnamedHelpers(all)).toEqual([]);
  });

  it('knows vitest\'s setup files by the names vitest.config.ts gives them', () => {
    const config = readFileSync(join(ROOT, 'vitest.config.ts'), 'utf8');
    const named = [...config.matchAll(/(?:globalSetup|setupFiles):\s*\[([^\]]*)\]/g)].flatMap((m) => [...m[1].matchAll(/'([^']+)'/g)].map((x) => x[1]));
    expect(named.sort()).toEqual([...VITEST_SETUP].sort());
    for (const f of PENDING) expect(existsSync(join(ROOT, f)), `${f} is renamed: drop it from PENDING`).toBe(true);
  });

  it('keeps shared/ free of server and renderer, and the renderer free of server and electron', () => {
    const bad = [...plain].flatMap(([from, tos]) =>
      tos
        .filter((to) => (from.startsWith('shared/') && (to.startsWith('server/') || to.startsWith('renderer/'))) || (from.startsWith('renderer/') && (to.startsWith('server/') || to.startsWith('electron/'))))
        .map((to) => `${from} → ${to}`),
    );
    expect(bad).toEqual([]);
  });
});
