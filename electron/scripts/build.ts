/**
 * Builds what Electron runs (it runs JavaScript, not TypeScript) into electron/dist/:
 *   electron/dist/electron/main.js      ESM main process, modules kept one file each so that
 *   electron/dist/server/**, shared/**  the server's own relative paths keep working:
 *   electron/dist/server/kitting/store/migrations/*.sql, electron/dist/seeds/*.json,
 *   electron/dist/renderer/dist/**      (copied; run `npm run build:ui` first)
 *   electron/dist/electron/preload.cjs  the sandboxed preload, one CommonJS file
 * npm packages (better-sqlite3, express, zod, electron-store, ...) stay external: they come
 * from node_modules, and electron-builder rebuilds better-sqlite3 for Electron's ABI.
 */
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const OUT = join(ROOT, 'electron', 'dist');

const isBare = (id: string) => !id.startsWith('.') && !id.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(id) && !id.startsWith('\0');
const nodeBuiltin = (id: string) => id.startsWith('node:') || builtinModules.includes(id);

export async function buildElectron(opts: { requireRenderer?: boolean } = {}): Promise<void> {
  const rendererDist = join(ROOT, 'renderer', 'dist');
  if (opts.requireRenderer !== false && !existsSync(join(rendererDist, 'index.html'))) {
    throw new Error('renderer/dist is missing: run `npm run build:ui` first');
  }
  rmSync(OUT, { recursive: true, force: true });

  // Main process and the embedded server: ESM, one output file per source module.
  await build({
    configFile: false,
    root: ROOT,
    logLevel: 'warn',
    build: {
      ssr: true,
      target: 'node22',
      outDir: OUT,
      emptyOutDir: false,
      minify: false,
      sourcemap: true,
      rollupOptions: {
        // The workers (PDF rendering, the WAL checkpoint) are loaded by URL (new Worker), not imported: entries of their own.
        input: {
          'electron/main': join(ROOT, 'electron', 'main.ts'),
          'server/kitting/modules/documents/pdf-worker': join(ROOT, 'server', 'kitting', 'modules', 'documents', 'pdf-worker.ts'),
          'server/core/db/wal-checkpoint-worker': join(ROOT, 'server', 'core', 'db', 'wal-checkpoint-worker.ts'),
        },
        external: (id: string) => isBare(id) || nodeBuiltin(id),
        output: { format: 'es', preserveModules: true, preserveModulesRoot: ROOT, entryFileNames: '[name].js' },
      },
    },
  });

  // Preload: sandboxed, so CommonJS in one file that requires nothing but 'electron'.
  await build({
    configFile: false,
    root: ROOT,
    logLevel: 'warn',
    build: {
      ssr: true,
      target: 'node22',
      outDir: join(OUT, 'electron'),
      emptyOutDir: false,
      minify: false,
      rollupOptions: {
        input: { preload: join(ROOT, 'electron', 'preload.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
    ssr: { noExternal: true },
  });

  cpSync(join(ROOT, 'server', 'kitting', 'store', 'migrations'), join(OUT, 'server', 'kitting', 'store', 'migrations'), { recursive: true });
  cpSync(join(ROOT, 'seeds'), join(OUT, 'seeds'), { recursive: true, filter: (src) => !src.endsWith('.ts') });
  // fonts embedded in generated PDFs (erasure certificates), read relative to the server modules
  if (existsSync(join(ROOT, 'assets'))) cpSync(join(ROOT, 'assets'), join(OUT, 'assets'), { recursive: true });
  if (existsSync(rendererDist)) cpSync(rendererDist, join(OUT, 'renderer', 'dist'), { recursive: true });
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, 'package.json'), `${JSON.stringify({ type: 'module', private: true }, null, 2)}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildElectron().then(
    () => console.log(`built ${OUT}`),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
