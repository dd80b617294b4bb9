import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** Rules of the repository's own code that no compiler checks: file size and where documents live. */
const ROOT = resolve(import.meta.dirname, '..');
const SKIP = new Set(['node_modules', 'dist', 'release']);

function files(dir: string, test: (name: string) => boolean, out: string[] = []): string[] {
  if (!existsSync(join(ROOT, dir))) return out;
  for (const name of readdirSync(join(ROOT, dir))) {
    if (SKIP.has(name)) continue;
    const rel = `${dir}/${name}`;
    if (statSync(join(ROOT, rel)).isDirectory()) files(rel, test, out);
    else if (test(name)) out.push(rel);
  }
  return out;
}

const CODE = /\.(ts|tsx|js|mjs|cjs|css)$/;
const lineCount = (file: string) => readFileSync(join(ROOT, file), 'utf8').split('\n').filter((l, i, all) => i < all.length - 1 || l !== '').length;

/** The comments of a source file (TypeScript's scanner, so strings and regular expressions are not read as comments). */
function comments(file: string): string[] {
  const src = readFileSync(join(ROOT, file), 'utf8');
  if (file.endsWith('.sql')) return src.split('\n').filter((l) => l.trimStart().startsWith('--'));
  if (file.endsWith('.css')) return [...src.matchAll(/\/\*[\s\S]*?\*\//g)].map((m) => m[0]);
  const out: string[] = [];
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.LanguageVariant.JSX : ts.LanguageVariant.Standard, src);
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia) out.push(scanner.getTokenText());
  }
  return out;
}

describe('file size', () => {
  // Tests, migrations and seed data are exempt: a test file reads as a list of cases, and a migration or a
  // seed file is data written once. Everything else is split by responsibility before it grows past this.
  const LIMIT = 400;
  const exempt = (f: string) => /\.test\.tsx?$/.test(f) || /\/(migrations|pg-migrations|seeds?)\//.test(f);

  it('keeps every source file of server/, shared/, renderer/ and electron/ at most 400 lines', () => {
    const code = ['server', 'shared', 'renderer', 'electron'].flatMap((d) => files(d, (n) => CODE.test(n))).filter((f) => !exempt(f));
    expect(code.length).toBeGreaterThan(300);
    const over = code.map((f) => ({ f, n: lineCount(f) })).filter((x) => x.n > LIMIT).map((x) => `${x.f} (${x.n} lines)`);
    expect(over).toEqual([]);
  });
});

describe('documents named in code', () => {
  const sources = ['server', 'shared', 'renderer', 'electron', 'perf', 'e2e', 'seeds', '.ci'].flatMap((d) => files(d, (n) => CODE.test(n) || n.endsWith('.sql')));
  const named = sources.flatMap((f) => comments(f).flatMap((c) => [...c.matchAll(/(?<![\w./-])((?:\.\.?\/)*[\w./-]*\.md)\b/g)].map((m) => ({ f, path: m[1] }))));

  it('reads the comments of the code base (the checker finds the design document it names)', () => {
    expect(sources.length).toBeGreaterThan(300);
    expect(named.some((n) => n.path === 'docs/DESIGN.md')).toBe(true);
  });

  it('names only documents that are in the repository, each by its path under docs/ (or a folder README)', () => {
    const bad = named.filter(({ path }) => !(path.startsWith('docs/') || /^[\w/-]*README\.md$/.test(path)) || !existsSync(join(ROOT, path))).map(({ f, path }) => `${f}: ${path}`);
    expect(bad).toEqual([]);
  });

  it('has the API contracts and the design in docs/', () => {
    for (const doc of ['docs/DESIGN.md', 'docs/spec/kitting-api.md', 'docs/spec/studio-api.md', 'docs/spec/agents-api.md', 'docs/spec/services.md']) expect(existsSync(join(ROOT, doc)), doc).toBe(true);
  });
});

describe('layers of the studio and the agent platform', () => {
  // Routes call services, services call repositories: a route file holds no query of its own.
  const QUERY = /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|prepare)\(|\bsql\s*(<[^>]*>)?`/;

  it('keeps queries out of every route file (they live in *.repository.ts)', () => {
    const routes = ['server/agents', 'server/studio'].flatMap((d) => files(d, (n) => n.endsWith('.routes.ts')));
    expect(routes.length).toBeGreaterThan(30);
    expect(routes.filter((f) => QUERY.test(readFileSync(join(ROOT, f), 'utf8')))).toEqual([]);
  });

  it('has repositories per aggregate, each typed on its service schema', () => {
    const repos = ['server/agents', 'server/studio'].flatMap((d) => files(d, (n) => n.endsWith('.repository.ts')));
    expect(repos.length).toBeGreaterThan(20);
    expect(repos.filter((f) => !/(AgentsDb|StudioDb|Kysely<)/.test(readFileSync(join(ROOT, f), 'utf8')))).toEqual([]);
  });
});
