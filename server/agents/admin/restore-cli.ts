/**
 * Operator command: `npm run agents:restore -- --database-url <postgres url> --file <agents-….pgexport.gz>`
 * loads a PostgreSQL export of the agent platform (POST /api/backups) into an EMPTY database (or schema,
 * through search_path in the URL's options). Exit 0 when loaded; 1 when refused or failed (nothing is
 * left behind: the load is one transaction); 2 on a usage error.
 */
import { restoreAgentsExport } from './pg-backup';

function arg(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  if (i >= 0) return argv[i + 1];
  return argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

async function main(argv: string[]): Promise<number> {
  const url = arg(argv, 'database-url') ?? process.env.AGENTS_DATABASE_URL;
  const file = arg(argv, 'file');
  if (!file || !url || !/^postgres(ql)?:\/\//.test(url)) {
    console.error('usage: npm run agents:restore -- --database-url postgres://user:password@host:port/database --file agents-YYYYMMDD-HHMMSS-xxxx.pgexport.gz');
    return 2;
  }
  const r = await restoreAgentsExport(url, file);
  console.log(`restored ${r.rows} rows into ${r.tables} tables (schema version ${r.schemaVersion})`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`restore failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
