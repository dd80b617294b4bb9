/**
 * README and docs/ stay true: every repository path they name exists, every `npm run <script>` they tell a
 * reader to type is a script in package.json, every relative link opens a file, and README stays short.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');
// docs/DESIGN.md is the target architecture and names other projects' files as models, so only its links are checked
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const PATHS_CHECKED = (file: string) => file !== 'docs/DESIGN.md';
/** Build outputs named in the docs: made by `npm run build:ui` / `npm run desktop`, not committed. */
const BUILT = ['electron/dist', 'renderer/dist', 'dist'];
const TOP = /^(server|shared|renderer|e2e|perf|docs|electron|seeds|assets|build|\.ci)\//;
const scripts = Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>);

/** The part of a named path that must exist: up to the first placeholder (`<id>`, `*`, `{a,b}`, `…`). */
function concrete(path: string): string {
  const cut = path.search(/[<*{…]|\.\.\./);
  const head = cut < 0 ? path : path.slice(0, cut);
  return cut < 0 ? head.replace(/[:#].*$/, '') : head.slice(0, head.lastIndexOf('/') + 1);
}

function problems(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/`([^`\n]+)`/g)) {
    for (const word of m[1].split(/[\s,()]+/)) {
      if (!PATHS_CHECKED(file) || !TOP.test(word) || BUILT.some((b) => word.startsWith(b))) continue;
      if (!existsSync(join(ROOT, concrete(word)))) out.push(`${file}: path ${word}`);
    }
    for (const s of m[1].matchAll(/npm run ([\w:-]+)/g)) if (!scripts.includes(s[1])) out.push(`${file}: npm run ${s[1]}`);
  }
  for (const m of text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
    if (/^[a-z]+:/.test(m[1])) continue;
    if (!existsSync(resolve(ROOT, dirname(file), m[1]))) out.push(`${file}: link ${m[1]}`);
  }
  return out;
}

describe('README and docs/', () => {
  it('name only paths, scripts and links that exist', () => {
    expect(DOCS.flatMap(problems)).toEqual([]);
  });

  it('README fits on a few screens (at most 200 lines)', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(200);
  });

  it('README points to every document in docs/', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const unlinked = DOCS.filter((f) => f.startsWith('docs/') && !readme.includes(`(${f})`) && !readme.includes(`(docs/${f.slice(5)})`));
    expect(unlinked).toEqual([]);
  });
});
