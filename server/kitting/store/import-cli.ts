/**
 * Operator command: `npm run central:import -- --from <kitting.db> --to <postgres url>` moves a central
 * SQLite database into an empty PostgreSQL database, with a progress bar and a row count per table at the
 * end. Exit code 0 when every count matches.
 */
import { importSqlite } from './pg-import';

function arg(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  if (i >= 0) return argv[i + 1];
  return argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

async function main(argv: string[]): Promise<number> {
  const from = arg(argv, 'from');
  const to = arg(argv, 'to') ?? process.env.KITTING_DATABASE_URL;
  if (!from || !to || !/^postgres(ql)?:\/\//.test(to)) {
    console.error('usage: npm run central:import -- --from <path/to/kitting.db> --to postgres://user:password@host:port/database');
    return 2;
  }
  const report = await importSqlite(from, to);
  console.log('verification (rows in SQLite = rows in PostgreSQL):');
  for (const t of report.tables) console.log(`  ${t.table.padEnd(18)} ${String(t.source).padStart(10)} ${t.source === t.target ? '=' : '≠'} ${String(t.target).padStart(10)}`);
  console.log(report.ok ? 'import complete: every count matches' : 'IMPORT INCOMPLETE: counts differ (see above)');
  return report.ok ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`import failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
