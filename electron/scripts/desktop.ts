/**
 * `npm run desktop`: build the shell (electron/scripts/build.ts), give it a better-sqlite3
 * compiled for Electron's ABI, and start Electron on the repository.
 *
 * Node (tests, `npm run server`) keeps using node_modules/better-sqlite3 built for Node. The
 * Electron build is a separate copy, rebuilt once per Electron/better-sqlite3 version into
 * electron/node_modules/.electron-abi/ and copied to electron/dist/node_modules/, which the
 * built server resolves before the root node_modules.
 */
import { spawnSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { buildElectron, OUT, ROOT } from './build';

const require = createRequire(import.meta.url);
const versionOf = (pkg: string): string => (JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;

function electronSqlite(): string {
  const electronVersion = versionOf('electron');
  const sqliteVersion = versionOf('better-sqlite3');
  const cache = join(ROOT, 'electron', 'node_modules', '.electron-abi', `${electronVersion}-${sqliteVersion}-${process.platform}-${process.arch}`);
  const mod = join(cache, 'node_modules', 'better-sqlite3');
  if (!existsSync(join(mod, 'build', 'Release', 'better_sqlite3.node'))) {
    mkdirSync(join(cache, 'node_modules'), { recursive: true });
    writeFileSync(join(cache, 'package.json'), JSON.stringify({ name: 'electron-abi', private: true, dependencies: { 'better-sqlite3': sqliteVersion } }));
    cpSync(join(ROOT, 'node_modules', 'better-sqlite3'), mod, { recursive: true, filter: (src) => !src.includes(`${join('better-sqlite3', 'build')}`) });
    console.log(`rebuilding better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} ...`);
    const bin = join(ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'electron-rebuild.cmd' : 'electron-rebuild');
    const r = spawnSync(bin, ['--force', '--only', 'better-sqlite3', '--module-dir', cache, '--version', electronVersion], {
      stdio: 'inherit',
      shell: process.platform === 'win32',
    });
    if (r.status !== 0) throw new Error('electron-rebuild failed: see the output above');
  }
  return mod;
}

/** Electron's build tooling (electron-rebuild, electron-builder) needs a newer Node than the servers do. */
function checkNode(): void {
  const want = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { desktopEngines: { node: string } }).desktopEngines.node;
  const [min, have] = [want.replace(/^>=/, ''), process.versions.node].map((v) => v.split('.').map(Number)) as [number[], number[]];
  const older = have[0]! < min[0]! || (have[0] === min[0] && have[1]! < min[1]!);
  if (older) throw new Error(`npm run desktop needs Node.js ${want} (Electron's build tools); this is Node.js ${process.versions.node}. The servers and tests run on Node.js 20.`);
}

async function main(): Promise<void> {
  checkNode();
  let electronPath: string;
  try {
    electronPath = require('electron') as string;
  } catch {
    throw new Error('Electron is not installed here (its binary could not be downloaded); see electron/README.md');
  }
  if (!existsSync(electronPath)) throw new Error(`Electron binary missing at ${electronPath}; see electron/README.md`);
  await buildElectron();
  cpSync(electronSqlite(), join(OUT, 'node_modules', 'better-sqlite3'), { recursive: true });
  const child = spawn(electronPath, [ROOT, ...process.argv.slice(2)], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
