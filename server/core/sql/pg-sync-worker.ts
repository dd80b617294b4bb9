/**
 * The worker side of the synchronous PostgreSQL connection (run with `eval`, CommonJS): one pg
 * client; each request is answered on the port, then the shared flag wakes the waiting thread.
 * Integers (int8, numeric) come back as numbers and booleans as 1/0, as SQLite gives them.
 */
export const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const pg = require(workerData.pgPath);
const { port, flag, url } = workerData;
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));
pg.types.setTypeParser(16, (v) => (v === 't' ? 1 : 0));
const client = new pg.Client({ connectionString: url });
let broken = null;
client.on('error', (err) => { broken = err; });
function reply(msg) {
  port.postMessage(msg);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}
function fail(err) {
  return { error: { message: err && err.message ? err.message : String(err), code: err && err.code ? err.code : null, detail: err && err.detail ? err.detail : null } };
}
const ready = client.connect().then(() => ({ ok: true }), (err) => fail(err));
port.on('message', async (req) => {
  if (req.kind === 'open') return reply(await ready);
  if (req.kind === 'close') {
    await client.end().catch(() => undefined);
    reply({ ok: true });
    port.close();
    return;
  }
  if (broken) return reply(fail(broken));
  try {
    const params = req.params ? req.params.map((p) => (p instanceof Uint8Array ? Buffer.from(p) : p)) : undefined;
    const res = await client.query(params ? { text: req.sql, values: params } : req.sql);
    const last = Array.isArray(res) ? res[res.length - 1] : res;
    reply({ rows: last && last.rows ? last.rows : [], changes: last && typeof last.rowCount === 'number' ? last.rowCount : 0 });
  } catch (err) {
    reply(fail(err));
  }
});
`;
