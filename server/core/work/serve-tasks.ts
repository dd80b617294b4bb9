import { parentPort } from 'node:worker_threads';

/**
 * The worker side of WorkerPool: answer each `{ id, task, args }` with the named task's result. A
 * Uint8Array result is sent as a transferred buffer (no copy).
 */
export function serveTasks(tasks: Record<string, (...args: never[]) => unknown>): void {
  const port = parentPort;
  if (!port) throw new Error('serveTasks runs in a worker thread');
  port.on('message', async (m: { id: number; task: string; args: unknown[] }) => {
    try {
      const fn = tasks[m.task];
      if (!fn) throw new Error(`unknown task ${m.task}`);
      const value = await (fn as (...a: unknown[]) => unknown)(...m.args);
      const transfer = value instanceof Uint8Array && value.byteOffset === 0 && value.byteLength === value.buffer.byteLength ? [value.buffer as ArrayBuffer] : [];
      port.postMessage({ id: m.id, ok: true, value }, transfer);
    } catch (err) {
      port.postMessage({ id: m.id, ok: false, error: err instanceof Error ? err.message : String(err) });
    }
  });
}
