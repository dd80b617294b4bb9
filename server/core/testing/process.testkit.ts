import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** SIGTERM and wait for the exit code. */
  stop: () => Promise<number | null>;
}

/**
 * Start a service's entry file (a path from the repository root, e.g. the one `npm run studio` starts) with
 * PORT=0 and NODE_ENV=test plus `env`; resolves once it prints its listening line.
 */
export function startServerProcess(env: Record<string, string>, timeoutMs: number, entry: string): Promise<ServerProcess> {
  // `node --import tsx` rather than the tsx CLI: the CLI relays SIGTERM through a parent process that
  // SIGKILLs the server (exit 143) when the child does not acknowledge within 30 ms, as on a loaded machine.
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, ...entry.split('/'))], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1],
          child,
          output: () => out,
          stop: async () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
}
