import type { AppContext } from '../context';
import { DomainError, notFound } from '../../core/errors';
import { HttpError, kindOfStatus } from '../../core/http/errors';
import type { SyncBench } from './bench';
import type { SyncCentral } from './central';
import { SyncError } from './protocol';

/** The sync side a route works with, refused with 404 in the other mode; sync refusals as API errors. */
export function centralOf(app: AppContext): SyncCentral {
  const c = app.sync?.central;
  if (!c) throw notFound('not_found', { message: 'この操作は中央サーバーでのみ使えます' });
  return c;
}

export function benchOf(app: AppContext): SyncBench {
  const b = app.sync?.bench;
  if (!b) throw notFound('not_found', { message: 'この操作は作業台(ベンチ)でのみ使えます' });
  return b;
}

const MESSAGES: Record<string, string> = {
  enrol_interrupted: '登録処理中にこの作業台で番号が発行されたため、登録を完了できませんでした。新しい登録コードで再度登録してください',
};

/** A refused sync call as the API's error envelope with central's own status (and central's time): a wire-to-wire relay. */
function asHttp(err: unknown): unknown {
  if (!(err instanceof SyncError)) return err;
  const status = err.status === 0 ? 503 : err.status;
  const message = MESSAGES[err.error];
  const extra = { ...(message ? { message } : {}), ...(err.serverTime === null ? {} : { serverTime: err.serverTime }) };
  const kind = kindOfStatus(status);
  return kind ? new DomainError(kind, err.error, extra) : new HttpError(status, err.error, extra);
}

export async function mapSyncErrors<T extends object>(fn: () => Promise<T>): Promise<Record<string, unknown>> {
  try {
    const out: object = await fn();
    return { ...out };
  } catch (err) {
    throw asHttp(err);
  }
}
