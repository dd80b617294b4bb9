import express, { type Request } from 'express';
import type { Server } from 'node:http';

/** Local stand-ins for the two payment providers, speaking just enough of their HTTP APIs for the tests. */
export interface FakeProvider {
  url: string;
  requests: { method: string; path: string; auth: string; body: Record<string, unknown> }[];
  close(): Promise<void>;
}

async function listen(app: express.Express): Promise<{ url: string; server: Server }> {
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const addr = server.address();
  return { url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`, server };
}

const closer = (server: Server) => () =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

type Obj = Record<string, unknown>;

export interface FakeStripe extends FakeProvider {
  sessions: Map<string, Obj>;
  /** The customer pays a checkout session (a subscription session also gets its subscription and customer). */
  pay(sessionId: string): Obj;
  /** Off-session charges answer with this status. */
  intentStatus: string;
}

export async function startFakeStripe(secretKey: string): Promise<FakeStripe> {
  const app = express();
  app.use(express.urlencoded({ extended: true }));
  let n = 0;
  const next = (p: string) => `${p}_test_${++n}`;
  const sessions = new Map<string, Obj>();
  const customers = new Map<string, Obj>();
  const subscriptions = new Map<string, Obj>();
  const fake = { requests: [] as FakeProvider['requests'], sessions, intentStatus: 'succeeded' } as FakeStripe;
  app.use((req: Request, res, nxt) => {
    fake.requests.push({ method: req.method, path: req.path, auth: req.headers.authorization ?? '', body: (req.body ?? {}) as Obj });
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      res.status(401).json({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      return;
    }
    nxt();
  });
  const notFound = (res: express.Response, what: string) => res.status(404).json({ error: { type: 'invalid_request_error', message: `No such ${what}` } });
  app.post('/v1/checkout/sessions', (req, res) => {
    const b = req.body as Obj;
    const id = next('cs');
    const items = (b.line_items as Obj[] | undefined) ?? [];
    const price = (items[0]?.price_data ?? {}) as Obj;
    const s: Obj = {
      id,
      object: 'checkout.session',
      mode: b.mode,
      status: 'open',
      payment_status: 'unpaid',
      url: `https://checkout.example.test/pay/${id}`,
      client_reference_id: b.client_reference_id ?? null,
      customer: b.customer ?? null,
      subscription: null,
      amount_total: Number(price.unit_amount ?? 0),
      currency: price.currency ?? 'usd',
      metadata: b.metadata ?? {},
      success_url: b.success_url,
    };
    sessions.set(id, s);
    res.json(s);
  });
  app.get('/v1/checkout/sessions/:id', (req, res) => {
    const s = sessions.get(String(req.params.id));
    if (!s) return void notFound(res, 'checkout.session');
    res.json(s);
  });
  app.post('/v1/customers', (req, res) => {
    const c = { id: next('cus'), object: 'customer', email: (req.body as Obj).email ?? null, metadata: (req.body as Obj).metadata ?? {} };
    customers.set(c.id, c);
    res.json(c);
  });
  app.post('/v1/customers/:id', (req, res) => {
    const c = customers.get(String(req.params.id));
    if (!c) return void notFound(res, 'customer');
    res.json(c);
  });
  app.post('/v1/payment_methods/:id/attach', (req, res) => res.json({ id: req.params.id, object: 'payment_method', customer: (req.body as Obj).customer }));
  app.get('/v1/payment_methods/:id', (req, res) => {
    if (!String(req.params.id).startsWith('pm_')) return void notFound(res, 'payment_method');
    res.json({ id: req.params.id, object: 'payment_method', type: 'card', card: { brand: 'visa', last4: '4242' } });
  });
  app.delete('/v1/subscriptions/:id', (req, res) => {
    const s = subscriptions.get(String(req.params.id));
    if (!s) return void notFound(res, 'subscription');
    s.status = 'canceled';
    res.json(s);
  });
  app.post('/v1/payment_intents', (req, res) => {
    const b = req.body as Obj;
    res.json({ id: next('pi'), object: 'payment_intent', amount: Number(b.amount), currency: b.currency, customer: b.customer, status: fake.intentStatus });
  });
  app.use((req, res) => void res.status(404).json({ error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.path})` } }));
  const { url, server } = await listen(app);
  fake.url = url;
  fake.close = closer(server);
  fake.pay = (sessionId) => {
    const s = sessions.get(sessionId);
    if (!s) throw new Error(`no session ${sessionId}`);
    s.status = 'complete';
    s.payment_status = 'paid';
    if (s.mode === 'subscription') {
      const sub = { id: next('sub'), object: 'subscription', status: 'active' };
      subscriptions.set(sub.id, sub);
      s.subscription = sub.id;
      s.customer ??= next('cus');
    }
    return s;
  };
  return fake;
}

export interface FakePayPal extends FakeProvider {
  subscriptions: Map<string, Obj>;
  /** The buyer approves a subscription at the provider. */
  approve(id: string): void;
  /** verify-webhook-signature answers SUCCESS only for this transmission signature. */
  validSignature: string;
  orders: Map<string, Obj>;
  /** The buyer approves a one-off order at the provider. */
  approveOrder(id: string): void;
  /** Captures answer with this status (PENDING: the money has not settled yet). */
  captureStatus: string;
  /** The next this many capture requests fail with a 500. */
  captureFailures: number;
}

export async function startFakePayPal(clientId: string, clientSecret: string): Promise<FakePayPal> {
  const app = express();
  app.use(express.json());
  app.use(express.urlencoded({ extended: false }));
  let n = 0;
  const tokens = new Set<string>();
  const subscriptions = new Map<string, Obj>();
  const orders = new Map<string, Obj>();
  const captured = new Map<string, Obj>();
  const fake = { requests: [] as FakeProvider['requests'], subscriptions, orders, validSignature: 'good-signature', captureStatus: 'COMPLETED', captureFailures: 0 } as FakePayPal;
  app.use((req, _res, nxt) => {
    fake.requests.push({ method: req.method, path: req.path, auth: req.headers.authorization ?? '', body: (req.body ?? {}) as Obj });
    nxt();
  });
  app.post('/v1/oauth2/token', (req, res) => {
    const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
    if (req.headers.authorization !== expected || (req.body as Obj).grant_type !== 'client_credentials') return void res.status(401).json({ error: 'invalid_client' });
    const token = `A21AA-${++n}`;
    tokens.add(token);
    res.json({ access_token: token, token_type: 'Bearer', expires_in: 32400 });
  });
  app.use((req, res, nxt) => {
    const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    if (!m || !tokens.has(m[1])) return void res.status(401).json({ name: 'AUTHENTICATION_FAILURE' });
    nxt();
  });
  app.post('/v1/catalogs/products', (_req, res) => void res.status(201).json({ id: `PROD-${++n}` }));
  app.post('/v1/billing/plans', (req, res) => void res.status(201).json({ id: `P-${++n}`, product_id: (req.body as Obj).product_id, status: 'ACTIVE' }));
  app.post('/v1/billing/subscriptions', (req, res) => {
    const b = req.body as Obj;
    const id = `I-${++n}`;
    const s: Obj = { id, status: 'APPROVAL_PENDING', plan_id: b.plan_id, custom_id: b.custom_id, links: [{ rel: 'approve', href: `https://paypal.example.test/approve/${id}` }] };
    subscriptions.set(id, s);
    res.status(201).json(s);
  });
  app.get('/v1/billing/subscriptions/:id', (req, res) => {
    const s = subscriptions.get(String(req.params.id));
    if (!s) return void res.status(404).json({ name: 'RESOURCE_NOT_FOUND' });
    res.json(s);
  });
  app.post('/v1/billing/subscriptions/:id/cancel', (req, res) => {
    const s = subscriptions.get(String(req.params.id));
    if (!s) return void res.status(404).json({ name: 'RESOURCE_NOT_FOUND' });
    s.status = 'CANCELLED';
    res.status(204).end();
  });
  app.post('/v2/checkout/orders', (req, res) => {
    const b = req.body as Obj;
    const id = `ORDER-${++n}`;
    const o: Obj = { id, intent: b.intent, status: 'CREATED', purchase_units: b.purchase_units, links: [{ rel: 'approve', href: `https://paypal.example.test/checkoutnow?token=${id}` }] };
    orders.set(id, o);
    res.status(201).json(o);
  });
  app.get('/v2/checkout/orders/:id', (req, res) => {
    const o = orders.get(String(req.params.id));
    if (!o) return void res.status(404).json({ name: 'RESOURCE_NOT_FOUND' });
    res.json(o);
  });
  app.post('/v2/checkout/orders/:id/capture', (req, res) => {
    const o = orders.get(String(req.params.id));
    if (!o) return void res.status(404).json({ name: 'RESOURCE_NOT_FOUND' });
    if (fake.captureFailures > 0) {
      fake.captureFailures -= 1;
      return void res.status(500).json({ name: 'INTERNAL_SERVICE_ERROR' });
    }
    const key = String(req.headers['paypal-request-id'] ?? '');
    const seen = key ? captured.get(key) : undefined;
    if (seen) return void res.status(201).json(seen);
    if (o.status !== 'APPROVED') {
      const issue = o.status === 'COMPLETED' ? 'ORDER_ALREADY_CAPTURED' : 'ORDER_NOT_APPROVED';
      return void res.status(422).json({ name: 'UNPROCESSABLE_ENTITY', details: [{ issue }] });
    }
    const units = o.purchase_units as Obj[];
    o.status = 'COMPLETED';
    units[0] = { ...units[0], payments: { captures: [{ id: `CAPTURE-${++n}`, status: fake.captureStatus, amount: units[0].amount }] } };
    if (key) captured.set(key, o);
    res.status(201).json(o);
  });
  app.post('/v1/notifications/verify-webhook-signature', (req, res) => {
    const b = req.body as Obj;
    const ok = b.transmission_sig === fake.validSignature && typeof b.webhook_id === 'string' && typeof b.webhook_event === 'object';
    res.json({ verification_status: ok ? 'SUCCESS' : 'FAILURE' });
  });
  const { url, server } = await listen(app);
  fake.url = url;
  fake.close = closer(server);
  fake.approveOrder = (id) => {
    const o = orders.get(id);
    if (!o) throw new Error(`no order ${id}`);
    o.status = 'APPROVED';
  };
  fake.approve = (id) => {
    const s = subscriptions.get(id);
    if (!s) throw new Error(`no subscription ${id}`);
    s.status = 'ACTIVE';
    s.billing_info = { next_billing_time: new Date(Date.now() + 30 * 86_400_000).toISOString() };
  };
  return fake;
}
