import { randomBytes } from 'node:crypto';
import { chmodSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { privateDir } from '../../core/security/private-files';
import { join, resolve, sep } from 'node:path';
import type { Response } from 'express';
import { badRequest, notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { writeAgentsExport } from './pg-backup';

/**
 * Snapshot files: `agents-<YYYYMMDD>-<HHMMSS>-<4 random>` + the format's extension — `.db` (a SQLite
 * database file) or `.pgexport.gz` (a PostgreSQL logical export, see core/db/pg-export.ts); nothing
 * else is ever served.
 */
const BACKUP_NAME = /^agents-\d{8}-\d{6}-[0-9a-f]{4}\.(db|pgexport\.gz)$/;
export type BackupFormat = 'sqlite' | 'pgexport';
const EXTENSION: Record<BackupFormat, string> = { sqlite: '.db', pgexport: '.pgexport.gz' };
/** The Content-Type a snapshot is served with, by format. */
export const BACKUP_MEDIA: Record<BackupFormat, string> = { sqlite: 'application/vnd.sqlite3', pgexport: 'application/gzip' };
const formatOf = (name: string): BackupFormat => (name.endsWith(EXTENSION.pgexport) ? 'pgexport' : 'sqlite');
/** Snapshots kept; creating one more removes the oldest. */
const BACKUPS_KEPT = 30;

const backupDir = (ctx: AgentsContext) => join(ctx.config.dataDir, 'backups');

export interface BackupInfo {
  name: string;
  format: BackupFormat;
  size: number;
  created_at: string;
}

function info(dir: string, name: string): BackupInfo {
  const st = statSync(join(dir, name));
  return { name, format: formatOf(name), size: st.size, created_at: st.mtime.toISOString() };
}

export function listBackups(ctx: AgentsContext): BackupInfo[] {
  const dir = backupDir(ctx);
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => BACKUP_NAME.test(n));
  } catch {
    names = [];
  }
  return names.sort().reverse().map((n) => info(dir, n));
}

/**
 * A consistent snapshot of the live database, written under a temporary name and renamed, so a
 * listed snapshot is always complete. SQLite: the online backup API (readers and writers go on
 * meanwhile; the copy is one point in time, WAL content included). PostgreSQL: a gzip'd logical
 * export of the platform's tables read in one REPEATABLE READ snapshot on one pooled connection.
 */
export async function createBackup(ctx: AgentsContext): Promise<BackupInfo> {
  const { sqlite, pool } = ctx.database;
  const format: BackupFormat = sqlite ? 'sqlite' : 'pgexport';
  const dir = backupDir(ctx);
  privateDir(dir);
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const name = `agents-${stamp}-${randomBytes(2).toString('hex')}${EXTENSION[format]}`;
  const tmp = join(dir, `.${name}.partial`);
  try {
    if (sqlite) await sqlite.backup(tmp);
    else if (pool) await writeAgentsExport(pool, tmp);
    else throw new Error('the store has neither a SQLite connection nor a PostgreSQL pool');
    chmodSync(tmp, 0o600);
    renameSync(tmp, join(dir, name));
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  for (const old of listBackups(ctx).slice(BACKUPS_KEPT)) rmSync(join(dir, old.name), { force: true });
  return info(dir, name);
}

/** The file of a snapshot by name: anything but a snapshot name (paths, `..`, other files) is refused. */
export function backupPath(ctx: AgentsContext, name: string): string {
  if (!BACKUP_NAME.test(name)) throw badRequest('invalid backup name');
  const dir = resolve(backupDir(ctx));
  const file = resolve(dir, name);
  if (!file.startsWith(dir + sep)) throw badRequest('invalid backup name');
  try {
    if (!statSync(file).isFile()) throw new Error('not a file');
  } catch {
    throw notFound('backup not found');
  }
  return file;
}

/** Streams a snapshot as an attachment; resolves when it was sent. */
export function sendBackup(res: Response, file: string, name: string): Promise<void> {
  return new Promise((done, fail) => {
    res.sendFile(file, { headers: { 'Content-Type': BACKUP_MEDIA[formatOf(name)], 'Content-Disposition': `attachment; filename="${name}"`, 'Cache-Control': 'no-store' }, dotfiles: 'deny' }, (err) =>
      err ? fail(err) : done(),
    );
  });
}
