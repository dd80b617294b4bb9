/**
 * A throwaway PostgreSQL cluster for the test run and the benchmarks: initdb + pg_ctl in a temporary folder
 * on a free loopback port. Uses the database an environment variable names instead when it is set
 * (TEST_DATABASE_URL by default; the caller may name its own).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { delimiter, join } from 'node:path';
import pg from 'pg';

export interface PgCluster {
  url: string;
  /** Stop the cluster and remove its folder (no-op for an external database). */
  stop: () => void;
}

const howToFix = (variable: string): string =>
  `Set ${variable}=postgres://user:password@host:port/database (a database the tests may create schemas in), ` +
  'or install PostgreSQL so that initdb and pg_ctl are on PATH or in /usr/lib/postgresql/<version>/bin ' +
  '(Debian/Ubuntu: apt-get install -y postgresql; run the tests as root to let them install it).';

class PgProvisionError extends Error {
  constructor(reason: string, variable = 'TEST_DATABASE_URL') {
    super(`PostgreSQL for the tests could not be provisioned: ${reason}\nHow to fix: ${howToFix(variable)}`);
  }
}

function onPath(cmd: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, cmd))) return dir;
  }
  return null;
}

/** The folder holding initdb and pg_ctl: PATH first, then the newest /usr/lib/postgresql/<version>/bin. */
function findPgBin(): string | null {
  const fromPath = onPath('initdb');
  if (fromPath && existsSync(join(fromPath, 'pg_ctl'))) return fromPath;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')) && existsSync(join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0] as string, 'bin') : null;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

function installPostgres(log: (line: string) => void): void {
  // As root, or through password-less sudo.
  const sudo = !isRoot() && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
  if (!isRoot() && !sudo) throw new PgProvisionError('initdb/pg_ctl were not found and the tests run neither as root nor with password-less sudo, so they cannot install PostgreSQL.');
  log('PostgreSQL not found: installing Debian\'s postgresql package (apt-get)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const aptGet = (args: string[]) => (sudo ? spawnSync('sudo', ['-n', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args], { stdio: 'pipe', encoding: 'utf8' }) : spawnSync('apt-get', args, { env, stdio: 'pipe', encoding: 'utf8' }));
  const update = aptGet(['update', '-qq']);
  if (update.status !== 0) throw new PgProvisionError(`apt-get update failed: ${update.stderr || update.error?.message}`);
  const install = aptGet(['install', '-y', '-qq', '--no-install-recommends', 'postgresql']);
  if (install.status !== 0) throw new PgProvisionError(`apt-get install postgresql failed: ${install.stderr || install.error?.message}`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** initdb refuses root: run the cluster as the `postgres` user (created when missing). */
function clusterUser(): { name: string; uid: number; gid: number } | null {
  if (!isRoot()) return null;
  const lookup = () => spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  let id = lookup();
  if (id.status !== 0) {
    const add = spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/bin/sh', 'postgres'], { encoding: 'utf8' });
    if (add.status !== 0) throw new PgProvisionError(`cannot create the postgres user to run the cluster as: ${add.stderr}`);
    id = lookup();
  }
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  return { name: 'postgres', uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

function run(user: string | null, cmd: string, args: string[]): void {
  const [file, argv] = user ? ['runuser', ['-u', user, '--', cmd, ...args]] : [cmd, args];
  const r = spawnSync(file, argv, { encoding: 'utf8', stdio: 'pipe', timeout: 120_000 });
  if (r.status !== 0) throw new PgProvisionError(`${cmd} ${args.join(' ')} failed: ${(r.stderr || r.stdout || r.error?.message || '').trim()}`);
}

async function reachable(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Start (or reuse) PostgreSQL; throws PgProvisionError with instructions when that is impossible.
 * `variable` names the environment variable that may hold an existing database's URL.
 */
export async function provisionPostgres(log: (line: string) => void = () => undefined, variable = 'TEST_DATABASE_URL'): Promise<PgCluster> {
  const external = process.env[variable];
  if (external) {
    try {
      await reachable(external);
    } catch (err) {
      throw new PgProvisionError(`${variable} is set but unreachable (${(err as Error).message}).`, variable);
    }
    return { url: external, stop: () => undefined };
  }
  let bin = findPgBin();
  if (!bin) {
    installPostgres(log);
    bin = findPgBin();
    if (!bin) throw new PgProvisionError('the postgresql package was installed but initdb/pg_ctl are still missing.');
  }
  const user = clusterUser();
  const dir = mkdtempSync(join(tmpdir(), 'test-pg-'));
  const data = join(dir, 'data');
  if (user) chownSync(dir, user.uid, user.gid);
  chmodSync(dir, 0o700);
  const port = await freePort();
  const as = user?.name ?? null;
  run(as, join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const opts = [
    `-p ${port}`,
    "-c listen_addresses='127.0.0.1'",
    `-c unix_socket_directories='${dir}'`,
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=300',
    '-c shared_buffers=128MB',
  ].join(' ');
  run(as, join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'server.log'), '-o', opts, '-w', '-t', '60', 'start']);
  const stop = () => {
    spawnSync(user ? 'runuser' : join(bin, 'pg_ctl'), user ? ['-u', user.name, '--', join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop'] : ['-D', data, '-m', 'immediate', '-w', 'stop'], {
      stdio: 'ignore',
      timeout: 60_000,
    });
    rmSync(dir, { recursive: true, force: true });
  };
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  try {
    await reachable(url);
  } catch (err) {
    stop();
    throw new PgProvisionError(`the throwaway cluster started but does not answer (${(err as Error).message}).`);
  }
  log(`PostgreSQL test cluster on port ${port} (${dir}, run as ${user?.name ?? userInfo().username})`);
  return { url, stop };
}
