import {
  SCHEMA_HEADER,
  SYNC_V1,
  SyncError,
  TOKEN_HEADER,
  type CertKeyAnswer,
  type CertKeyBody,
  type EnrolAnswer,
  type EnrolBody,
  type LeaseAnswer,
  type LeaseBody,
  type PortalLinkAnswer,
  type PullAnswer,
  type PushAnswer,
  type PushBody,
  type SnapshotAnswer,
  type Transport,
} from './protocol';

const TIMEOUT_MS = 60_000;

/** The bench's way to central over HTTP(S). A network failure is a SyncError with status 0. */
export class HttpTransport implements Transport {
  constructor(private readonly base: string) {}

  private async call<T>(method: 'GET' | 'POST', path: string, schema: number, token: string | null, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { [SCHEMA_HEADER]: String(schema), accept: 'application/json' };
    if (token) headers[TOKEN_HEADER] = token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(`${this.base}${SYNC_V1}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      const cause = (err as Error & { cause?: { code?: string } }).cause;
      throw new SyncError(0, `central_unreachable${cause?.code ? ` (${cause.code})` : ''}`);
    }
    const text = await res.text();
    let parsed: Record<string, unknown> | null = null;
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      parsed = null;
    }
    if (!res.ok || !parsed || parsed.ok !== true) {
      const error = typeof parsed?.error === 'string' ? parsed.error : `http_${res.status}`;
      throw new SyncError(res.status, error, typeof parsed?.serverTime === 'number' ? parsed.serverTime : null);
    }
    return parsed as T;
  }

  enrol(body: EnrolBody, schema: number): Promise<EnrolAnswer> {
    return this.call('POST', '/enrol', schema, null, body);
  }

  push(token: string, body: PushBody, schema: number): Promise<PushAnswer> {
    return this.call('POST', '/push', schema, token, body);
  }

  pull(token: string, after: number, limit: number, schema: number): Promise<PullAnswer> {
    return this.call('GET', `/changes?after=${after}&limit=${limit}`, schema, token);
  }

  snapshot(token: string, afterKey: string, limit: number, schema: number): Promise<SnapshotAnswer> {
    return this.call('GET', `/snapshot?after=${encodeURIComponent(afterKey)}&limit=${limit}`, schema, token);
  }

  lease(token: string, body: LeaseBody, schema: number): Promise<LeaseAnswer> {
    return this.call('POST', '/lease', schema, token, body);
  }

  portalLink(token: string, key: string, schema: number): Promise<PortalLinkAnswer> {
    return this.call('POST', '/portal-link', schema, token, { key });
  }

  certKey(token: string, body: CertKeyBody, schema: number): Promise<CertKeyAnswer> {
    return this.call('POST', '/cert-key', schema, token, body);
  }
}
