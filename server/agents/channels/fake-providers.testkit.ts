import { createServer, type Server } from 'node:http';
import type { AgentsConfig, ProviderName } from '../config';

/** Local stand-ins for the channel and CRM providers (tests only; nothing reaches the real services). */
export interface FakeProviders {
  urls: Record<ProviderName, string>;
  sent: { provider: string; path: string; auth: string; body: Record<string, unknown> }[];
  close(): Promise<void>;
}

export const GOOD = { slack: 'xoxb-good-token', whatsapp: 'wa-good-token', hubspot: 'hs-good-token', pipedrive: 'pd-good-token' };

export async function startFakeProviders(): Promise<FakeProviders> {
  const sent: FakeProviders['sent'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const auth = String(req.headers.authorization ?? '');
      const raw = Buffer.concat(chunks).toString('utf8');
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      const reply = (status: number, json: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      const [, provider, ...rest] = url.pathname.split('/');
      const path = `/${rest.join('/')}`;
      if (provider === 'slack' && path === '/auth.test') {
        return reply(200, auth === `Bearer ${GOOD.slack}` ? { ok: true, team_id: 'T0001', team: 'Acme', user_id: 'UBOT' } : { ok: false, error: 'invalid_auth' });
      }
      if (provider === 'slack' && path === '/chat.postMessage') {
        sent.push({ provider, path, auth, body });
        return reply(200, auth === `Bearer ${GOOD.slack}` ? { ok: true, ts: '2.0' } : { ok: false, error: 'invalid_auth' });
      }
      if (provider === 'wa' && /^\/\d+$/.test(path) && req.method === 'GET') {
        if (auth !== `Bearer ${GOOD.whatsapp}`) return reply(401, { error: { message: 'Invalid OAuth access token' } });
        return reply(200, { id: path.slice(1), display_phone_number: '+81 3-0000-0000', verified_name: 'Acme' });
      }
      if (provider === 'wa' && /^\/\d+\/messages$/.test(path)) {
        sent.push({ provider, path, auth, body });
        return reply(200, { messages: [{ id: 'wamid.1' }] });
      }
      if (provider === 'hubspot' && path === '/account-info/v3/details') {
        return auth === `Bearer ${GOOD.hubspot}` ? reply(200, { portalId: 4242, timeZone: 'Asia/Tokyo' }) : reply(401, { message: 'Authentication credentials not found' });
      }
      if (provider === 'pipedrive' && path === '/users/me') {
        return url.searchParams.get('api_token') === GOOD.pipedrive
          ? reply(200, { success: true, data: { name: 'Aki', email: 'aki@example.com', company_name: 'Acme' } })
          : reply(401, { success: false, error: 'unauthorized access' });
      }
      if (provider === 'hubspot' && path === '/crm/v3/objects/contacts' && req.method === 'POST') {
        sent.push({ provider, path, auth, body });
        return auth === `Bearer ${GOOD.hubspot}` ? reply(201, { id: '501' }) : reply(401, { message: 'Authentication credentials not found' });
      }
      if (provider === 'pipedrive' && path === '/persons' && req.method === 'POST') {
        sent.push({ provider, path, auth: url.searchParams.get('api_token') ?? '', body });
        return reply(201, { success: true, data: { id: 7 } });
      }
      reply(404, { error: 'no such fake route' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const addr = server.address();
  const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  return {
    urls: { slack: `${base}/slack`, whatsapp: `${base}/wa`, hubspot: `${base}/hubspot`, pipedrive: `${base}/pipedrive` },
    sent,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

const providerConfig = (f: FakeProviders): Partial<AgentsConfig> => ({ providerUrls: f.urls });
