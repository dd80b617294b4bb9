/**
 * Operator command: `npm run sync -- --once` runs one push/pull/lease cycle of the bench in
 * KITTING_DATA_DIR against its central server and prints the sync status as JSON.
 *   --status                  print the status only
 *   --central <url> --enrol-code <code>   enrol first (while the bench server is stopped)
 * Exit code 0 when the cycle succeeded, 1 when it failed (the reason is in lastError).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readConfig } from '../server-config';
// The modules declare the numbered series the bench keeps blocks of.
import '../modules';
import { SqliteStore } from '../store/sqlite-store';
import { SyncBench } from './bench';
import { describe } from './protocol';
import { HttpTransport } from './http-transport';
import { flag } from './start';

async function run(argv: string[]): Promise<number> {
  const config = readConfig();
  const file = join(config.dataDir, 'kitting.db');
  if (!existsSync(file)) {
    console.error(`no bench database in ${config.dataDir} (set KITTING_DATA_DIR)`);
    return 1;
  }
  const store = new SqliteStore({ file });
  try {
    const bench = new SyncBench(store, { dataDir: config.dataDir, transport: (url) => new HttpTransport(url), log: (l) => console.error(l) });
    await bench.load();
    const central = flag(argv, 'central') ?? process.env.KITTING_CENTRAL_URL;
    const code = flag(argv, 'enrol-code') ?? process.env.KITTING_ENROL_CODE;
    if (!bench.enrolled && central && code) await bench.enrol(central, code);
    let ok = true;
    if (!argv.includes('--status')) {
      if (!bench.enrolled) {
        console.error('this bench is not enrolled: give --central <url> --enrol-code <code>');
        return 1;
      }
      ok = await bench.cycle().then(
        () => true,
        (err: unknown) => {
          console.error(`sync failed: ${describe(err)}`);
          return false;
        },
      );
    }
    console.log(JSON.stringify(await bench.status(), null, 2));
    return ok ? 0 : 1;
  } finally {
    store.close();
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(describe(err));
    process.exit(1);
  },
);
