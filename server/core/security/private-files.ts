import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Data folders and files of the services are readable by their own user only: folders 0700, files 0600,
 * whatever the process umask. Existing ones are tightened when the service starts.
 */
export function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** Write a file that only the service's user can read (key files, uploads, outgoing mail). */
export function writePrivateFile(file: string, data: string | Buffer): void {
  writeFileSync(file, data, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/**
 * Before SQLite opens `file`: the folder 0700, the database created empty at 0600 (SQLite creates its
 * -wal and -shm files with the database file's permissions), and existing -wal/-shm files tightened.
 */
export function prepareSqliteFile(file: string): void {
  if (file === ':memory:' || file === '') return;
  privateDir(dirname(file));
  if (!existsSync(file)) writeFileSync(file, '', { mode: 0o600, flag: 'a' });
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) if (existsSync(f)) chmodSync(f, 0o600);
}
