/**
 * The one typed client of the Kitting Operations API, used by the renderer (bench window,
 * central web, portal page and admin console). Built on fetch and the zod schemas of
 * ./schemas; no node:, electron or DOM-only code.
 */
import { z } from 'zod';
import * as S from './schemas';

export type HttpMethod = 'GET' | 'POST' | 'PUT';
type Query = Record<string, string | number | undefined | null>;

/** A failed call: HTTP status (0 = no connection), the contract's error string and the body. */
export class ApiError extends Error {
  constructor(
    readonly method: HttpMethod,
    readonly path: string,
    readonly status: number,
    readonly error: string,
    readonly body: Record<string, unknown> | null = null,
  ) {
    super(`${method} ${path}: ${status} ${error}`);
    this.name = 'ApiError';
  }

  /** The server's own explanation (`message`), when it sent one. */
  get serverMessage(): string | null {
    const m = this.body?.message;
    return typeof m === 'string' && m.trim() !== '' ? m : null;
  }

  /** True when the server has no such route yet (an API that has not landed). */
  get missingRoute(): boolean {
    return this.status === 404 && this.error === 'not_found' && /^no route/.test(this.serverMessage ?? '');
  }
}

const KNOWN_ERRORS: Record<string, string> = {
  portal_link_invalid: 'このリンクは無効です。期限切れか、取り消された可能性があります。',
  portal_not_found: 'このポータルは見つかりません。',
  portal_unpublished: 'このポータルは現在公開されていません。',
  message_required: '本文を入力してください。',
  ticket_not_created: 'チケットを作成できませんでした。時間をおいて再度お試しください。',
  quote_inconsistent: '見積の金額が一致しません。明細を確認してください。',
  customer_required: '顧客を選択してください。',
  customer_not_found: '指定の顧客が見つかりません。',
  unauthorized: '認証が必要です。もう一度サインインしてください。',
  'no draft': '適用できる下書きがありません。',
  'unknown snapshot': '指定の履歴が見つかりません。',
  'alert not found': 'このアラートは見つかりません（削除された可能性があります）。',
  'device not found': 'この端末は台帳にありません。',
  'job not found': 'この案件カードは見つかりません。',
  'ticket not found': 'このチケットは見つかりません。',
  'device already exists': 'このIMEIはすでに台帳に登録されています。',
  'qty required': '台数を1〜1000で指定してください。',
};

const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/;

/**
 * An error text for people: the server names the field key beside its Japanese name ("金額(amount)は必須です");
 * on screen the key is dropped ("金額は必須です"). Only a bare key in parentheses right after Japanese text.
 */
export function plainMessage(message: string): string {
  return message.replace(/([^\x00-\x7f])\s?[(（][A-Za-z][\w.[\]]*[)）]/g, '$1');
}

/** What went wrong, in plain Japanese, for any error a call can throw. */
export function describeError(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 0) return 'サーバーに接続できません。サーバーが起動しているか、ネットワークを確認してください。';
    if (err.missingRoute) return `この機能のAPI（${err.method} ${err.path}）はまだこのサーバーに実装されていません。`;
    if (err.error === 'bad_response') return `サーバーの応答の形式が想定と異なります（${err.method} ${err.path}）。`;
    const known = KNOWN_ERRORS[err.error];
    if (err.serverMessage && JAPANESE.test(err.serverMessage)) return plainMessage(err.serverMessage);
    if (known) return known;
    if (JAPANESE.test(err.error)) return err.error;
    if (err.status === 401) return '認証が必要です。もう一度サインインしてください。';
    if (err.status === 403) return 'この操作を行う権限がありません。';
    if (err.status === 404) return `対象が見つかりません（${err.error}）。`;
    if (err.status === 409) return `現在の状態ではこの操作はできません（${err.error}）。`;
    if (err.status === 413) return 'データが大きすぎます。';
    if (err.status >= 500) return `サーバーでエラーが発生しました（${err.status}: ${err.error}）。時間をおいて再度お試しください。`;
    return `リクエストが受け付けられませんでした（${err.status}: ${err.error}）。`;
  }
  if (err instanceof Error) return `予期しないエラー: ${err.message}`;
  return '予期しないエラーが発生しました。';
}

export interface ApiClientOptions {
  /** Origin prefix, '' for same-origin (the default). */
  base?: string;
  fetch?: typeof fetch;
  /** Bearer token (admin, sub-admin or account session), read on every call. */
  token?: () => string | null;
}

const ok = <T extends z.ZodRawShape>(shape: T) => z.looseObject(shape);
const list = <K extends string, T extends z.ZodType>(key: K, item: T) => z.looseObject({ [key]: z.array(item) } as { [P in K]: z.ZodArray<T> });

export function createApiClient(opts: ApiClientOptions = {}) {
  const base = opts.base ?? '';
  const doFetch = opts.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  function url(path: string, query?: Query): string {
    const q = query
      ? Object.entries(query)
          .filter(([, v]) => v !== undefined && v !== null && v !== '')
          .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
          .join('&')
      : '';
    return `${base}${path}${q ? `?${q}` : ''}`;
  }

  async function call<T extends z.ZodType>(method: HttpMethod, path: string, schema: T, init: { query?: Query; body?: unknown } = {}): Promise<z.infer<T>> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (init.body !== undefined) headers['Content-Type'] = 'application/json';
    const token = opts.token?.();
    if (token) headers.Authorization = `Bearer ${token}`;
    let res: Response;
    try {
      res = await doFetch(url(path, init.query), {
        method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        credentials: 'same-origin',
      });
    } catch {
      throw new ApiError(method, path, 0, 'network');
    }
    let body: unknown = null;
    try {
      body = await res.json();
    } catch {
      throw new ApiError(method, path, res.status, res.ok ? 'bad_response' : `http_${res.status}`);
    }
    const rec = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
    if (!res.ok || !rec || rec.ok !== true) {
      const error = rec && typeof rec.error === 'string' ? rec.error : res.ok ? 'bad_response' : `http_${res.status}`;
      throw new ApiError(method, path, res.ok ? 200 : res.status, error, rec);
    }
    const parsed = schema.safeParse(rec);
    if (!parsed.success) throw new ApiError(method, path, res.status, 'bad_response', rec);
    return parsed.data;
  }

  const get = <T extends z.ZodType>(path: string, schema: T, query?: Query) => call('GET', path, schema, { query });
  const post = <T extends z.ZodType>(path: string, schema: T, body: unknown = {}, query?: Query) => call('POST', path, schema, { body, query });
  const put = <T extends z.ZodType>(path: string, schema: T, body: unknown) => call('PUT', path, schema, { body });
  const e = encodeURIComponent;
  const empty = ok({});
  const anyList = (key: string) => z.looseObject({ [key]: z.array(S.AnyRecord) });

  return {
    url,
    /** Escape hatch for routes without a dedicated method (still envelope-checked). */
    raw: { get: (path: string, query?: Query) => get(path, S.AnyRecord, query), post: (path: string, body?: unknown) => post(path, S.AnyRecord, body), put: (path: string, body: unknown) => put(path, S.AnyRecord, body) },

    ping: () => get('/api/ping', S.opsResponses.ping),
    metricsOverview: () => get('/api/metrics/overview', S.MetricsOverview),
    opsToday: () => get('/api/ops/today', S.opsResponses.today),
    alerts: () => get('/api/alerts', S.opsResponses.alerts),
    ackAlert: (id: string) => post(`/api/alert/${e(id)}/ack`, S.opsResponses.ack),
    syncStatus: () => get('/api/sync/status', S.AnyRecord),

    devices: () => get('/api/devices', S.deviceResponses.list),
    createDevice: (d: S.DeviceCreate) => post('/api/device', S.deviceResponses.create, d),
    bulkDevices: (b: S.BulkRegister) => post('/api/devices/bulk', S.deviceResponses.bulk, b),
    updateDevice: (imei: string, patch: S.DevicePatch) => post(`/api/device/${e(imei)}`, S.deviceResponses.update, patch),
    deleteDevice: (imei: string) => post(`/api/device/${e(imei)}/delete`, S.deviceResponses.remove),

    jobs: () => get('/api/jobs', S.jobResponses.list),
    createJob: (j: S.JobInput) => post('/api/job', S.jobResponses.create, j),
    updateJob: (id: string, j: S.JobInput) => post(`/api/job/${e(id)}`, S.jobResponses.update, j),
    deleteJob: (id: string) => post(`/api/job/${e(id)}/delete`, S.jobResponses.remove),
    jobDevices: (id: string, change: { add?: string[]; remove?: string[] }) => post(`/api/job/${e(id)}/devices`, S.jobResponses.devices, change),

    shipments: () => get('/api/shipments', S.shipmentResponses.list),
    createShipment: (s: Partial<S.Shipment>) => post('/api/shipment', S.shipmentResponses.create, s),
    updateShipment: (id: string, s: Partial<S.Shipment>) => post(`/api/shipment/${e(id)}`, S.shipmentResponses.update, s),
    deleteShipment: (id: string) => post(`/api/shipment/${e(id)}/delete`, S.shipmentResponses.remove),

    inquiries: () => get('/api/inquiries', S.inquiryResponses.list),
    createInquiry: (i: Partial<S.Inquiry>) => post('/api/inquiry', S.inquiryResponses.create, i),
    updateInquiry: (id: string, i: Partial<S.Inquiry>) => post(`/api/inquiry/${e(id)}`, S.inquiryResponses.update, i),
    deleteInquiry: (id: string) => post(`/api/inquiry/${e(id)}/delete`, S.inquiryResponses.remove),

    tickets: () => get('/api/tickets', S.ticketResponses.list),
    createTicket: (t: Partial<S.Ticket>) => post('/api/ticket', S.ticketResponses.create, t),
    updateTicket: (id: string, t: Partial<S.Ticket>) => post(`/api/ticket/${e(id)}`, S.ticketResponses.update, t),
    deleteTicket: (id: string) => post(`/api/ticket/${e(id)}/delete`, S.ticketResponses.remove),
    ticketMessages: (id: string) => get(`/api/ticket/${e(id)}/messages`, S.ticketResponses.messages),
    postTicketMessage: (id: string, m: { from?: string; text: string }) => post(`/api/ticket/${e(id)}/message`, S.ticketResponses.message, m),

    customers: () => get('/api/customers', S.customerResponses.list),
    createCustomer: (c: Partial<S.Customer>) => post('/api/customer', S.customerResponses.create, c),
    updateCustomer: (id: string, c: Partial<S.Customer>) => post(`/api/customer/${e(id)}`, S.customerResponses.update, c),
    deleteCustomer: (id: string) => post(`/api/customer/${e(id)}/delete`, S.customerResponses.remove),
    renewals: () => get('/api/renewals', S.customerResponses.renewals),

    certs: () => get('/api/certs', list('certs', S.ErasureCert)),
    cert: (no: string) => get(`/api/cert/${e(no)}`, ok({ cert: S.ErasureCert })),
    issueCert: (c: S.CertInput) => post('/api/cert', ok({ cert: S.ErasureCert }), c),
    certPdfUrl: (no: string) => url(`/api/cert/${e(no)}/pdf`),

    labelTemplates: () => get('/api/labels/templates', list('templates', S.LabelTemplate)),
    saveLabelTemplate: (t: { id?: string; name: string; size: S.LabelSize; fields: Record<S.LabelField, boolean>; ts?: number }) =>
      post('/api/labels/template', ok({ template: S.LabelTemplate }), t),
    deleteLabelTemplate: (id: string) => post(`/api/labels/template/${e(id)}/delete`, empty),
    labelLog: () => get('/api/labels/log', list('log', S.LabelLogEntry)),
    addLabelLog: (entry: { size: S.LabelSize; count: number; date: string; ts: number }) => post('/api/labels/log', ok({ entry: S.LabelLogEntry }), entry),

    quoteCatalog: () => get('/api/quote/catalog', ok({ catalog: ok({ initial: z.array(S.QuoteLine), running: z.array(S.QuoteLine) }) })),
    newQuote: (q: { custId?: string; cust?: string; devices?: number; pattern?: string }) => get('/api/quote/new', ok({ quote: S.Quote }), q),
    quotes: () => get('/api/quotes', list('quotes', S.Quote)),
    quote: (id: string) => get(`/api/quote/${e(id)}`, ok({ quote: S.Quote })),
    previewQuote: (q: S.QuoteInput) => post('/api/quote/preview', ok({ quote: S.Quote, csv: z.string().optional() }), q),
    createQuote: (q: S.QuoteInput) => post('/api/quote', ok({ quote: S.Quote }), q),
    updateQuote: (id: string, q: Partial<S.QuoteInput>) => post(`/api/quote/${e(id)}`, ok({ quote: S.Quote }), q),
    issueQuote: (id: string) => post(`/api/quote/${e(id)}/issue`, ok({ quote: S.Quote })),
    quoteCsvUrl: (id: string) => url(`/api/quote/${e(id)}/csv`),

    invoices: () => get('/api/invoices', list('invoices', S.Invoice)),
    createInvoice: (i: Partial<S.Invoice>) => post('/api/invoice', ok({ invoice: S.Invoice }), i),
    updateInvoice: (id: string, i: Partial<S.Invoice>) => post(`/api/invoice/${e(id)}`, ok({ invoice: S.Invoice }), i),
    issueInvoices: (month?: string) => post('/api/invoices/issue', ok({ count: z.number() }), month ? { month } : {}),
    billingSummary: () => get('/api/billing/summary', ok({ summary: S.BillingSummary })),

    shifts: () => get('/api/shifts', ok({ grid: S.Grid, clock: z.record(z.string(), S.ClockRow).optional(), draft: S.ShiftDraft.nullable().optional() })),
    stageShiftDraft: (grid: S.Grid) => post('/api/shifts/draft', ok({ draft: S.ShiftDraft }), { grid }),
    applyShiftDraft: () => post('/api/shifts/draft/apply', ok({ grid: S.Grid })),
    discardShiftDraft: () => post('/api/shifts/draft/discard', ok({ discarded: z.boolean() })),
    shiftHistory: () => get('/api/shifts/history', list('history', S.RosterSnapshot)),
    restoreShifts: (hid: string) => post(`/api/shifts/restore/${e(hid)}`, ok({ grid: S.Grid })),
    staff: () => get('/api/staff', list('staff', S.Staff)),
    punch: (staffId: string, dir?: 'in' | 'out') => post(`/api/timeclock/${e(staffId)}/punch`, ok({ row: S.ClockRow }), dir ? { dir } : {}),

    dockReservations: () => get('/api/dock/reservations', list('reservations', S.DockReservation)),
    saveDockReservation: (r: Partial<S.DockReservation>) => post('/api/dock/reservation', ok({ reservation: S.DockReservation }), r),
    deleteDockReservation: (id: string) => post(`/api/dock/reservation/${e(id)}/delete`, empty),

    capacity: () => get('/api/capacity', ok({ config: S.CapacityConfig, load: z.array(S.LoadEntry), week: z.array(S.CapacityDay), summary: S.CapacitySummary })),
    saveCapacityConfig: (c: Partial<Record<S.CapacityKey, number>>) => post('/api/capacity/config', ok({ config: S.CapacityConfig }), c),
    createLoad: (l: S.LoadInput) => post('/api/capacity/load', ok({ entry: S.LoadEntry }), l),
    updateLoad: (id: string, l: S.LoadInput) => post(`/api/capacity/load/${e(id)}`, ok({ entry: S.LoadEntry }), l),
    deleteLoad: (id: string) => post(`/api/capacity/load/${e(id)}/delete`, ok({ id: z.string() })),

    daas: () => get('/api/daas', ok({ quotes: z.array(S.DaasQuote), sim: S.DaasSim.nullable().optional(), sends: z.array(S.DaasSend).optional(), totals: S.DaasTotals.optional() })),
    saveDaasSim: (sim: S.DaasSimInput) => post('/api/daas/sim', ok({ sim: S.DaasSim }), sim),
    sendDaas: (b: S.DaasSendInput) => post('/api/daas/send', ok({ send: S.DaasSend }), b),
    saveDaasQuote: (q: S.DaasQuoteInput) => post('/api/daas/quote', ok({ quote: S.DaasQuote }), q),
    setDaasStatus: (id: string, status: S.DaasStatus) => post(`/api/daas/quote/${e(id)}/status`, ok({ quote: S.DaasQuote, from: z.string(), totals: S.DaasTotals }), { status }),
    deleteDaasQuote: (id: string) => post(`/api/daas/quote/${e(id)}/delete`, ok({ id: z.string() })),

    storeCatalog: () => get('/api/store/catalog', ok({ catalog: z.array(S.StoreProduct), cats: z.array(z.string()).optional() })),
    storeOrders: () => get('/api/store/orders', ok({ orders: z.array(S.StoreOrder), count: z.number().optional() })),
    createStoreOrder: (o: S.StoreOrderInput) => post('/api/store/order', ok({ order: S.StoreOrder }), o),
    updateStoreOrder: (id: string, o: { status?: string; cust?: string; job?: string; dest?: string }) => post(`/api/store/order/${e(id)}`, ok({ order: S.StoreOrder }), o),
    deleteStoreOrder: (id: string) => post(`/api/store/order/${e(id)}/delete`, ok({ id: z.string() })),
    createStoreProduct: (p: { name: string; cat?: string; price: number; cost?: number; note?: string }) => post('/api/store/product', ok({ product: S.StoreProduct }), p),

    tradein: () => get('/api/tradein', ok({ buybacks: z.array(S.Buyback), inventory: z.array(S.RefurbStock), receipts: z.array(S.BuybackReceipt) })),
    createBuyback: (b: { model: string; cust?: string; grade?: string; bat?: number; offer: number; resell: number; imei?: string; note?: string }) => post('/api/tradein/buyback', ok({ buyback: S.Buyback }), b),
    deleteBuyback: (id: string) => post(`/api/tradein/buyback/${e(id)}/delete`, ok({ id: z.string() })),
    createStock: (s: { model: string; grade?: string; cost?: number; ask?: number; note?: string }) => post('/api/tradein/inventory', ok({ stock: S.RefurbStock }), s),
    deleteStock: (id: string) => post(`/api/tradein/inventory/${e(id)}/delete`, ok({ id: z.string() })),
    createReceipt: (r: { cust: string; person?: string; note?: string; items?: { model?: string; imei?: string; grade?: string; qty?: number; price?: number }[] }) => post('/api/tradein/receipt', ok({ receipt: S.BuybackReceipt }), r),
    deleteReceipt: (no: string) => post(`/api/tradein/receipt/${e(no)}/delete`, ok({ id: z.string() })),

    reports: () => get('/api/reports', ok({ reports: z.array(S.Report), count: z.number().optional() })),
    previewReport: (q: { cust?: string; month?: string }) => get('/api/report/generate', ok({ report: S.Report, hasData: z.boolean().optional() }), q),
    saveReport: (q: { cust?: string; month?: string }) => post('/api/report/generate', ok({ report: S.Report, hasData: z.boolean().optional() }), q),
    report: (id: string) => get(`/api/report/${e(id)}`, ok({ report: S.Report })),

    compliance: () => get('/api/compliance', ok({ controls: z.record(z.string(), z.array(z.boolean())), capa: z.array(S.Capa) })),
    setControls: (key: S.ComplianceKey, controls: boolean[]) => put(`/api/compliance/controls/${e(key)}`, ok({ key: z.string(), controls: z.array(z.boolean()) }), { controls }),
    setCapaState: (id: string, state: string) => post(`/api/compliance/capa/${e(id)}`, ok({ capa: S.Capa }), { state }),
    auditLog: () => get('/api/audit-log', ok({ logs: z.array(S.AuditRow) })),
    addAudit: (a: S.AuditInput) => post('/api/audit-log', ok({ entry: S.AuditRow }), a),
    custody: (r: S.CustodyInput) => post('/api/compliance/custody', ok({ record: S.CustodyRecord }), r),
    complianceReport: (b: { month?: string; claim?: { count: number } }) => post('/api/compliance/report', ok({ doc: S.ComplianceDoc }), b),

    integrationRules: () => get('/api/integrations/rules', ok({ rules: z.record(z.string(), z.boolean()), extraRules: z.array(S.ExtraRule) })),
    saveIntegrationRules: (b: { rules: Record<string, boolean>; extraRules: S.ExtraRule[] }) => put('/api/integrations/rules', ok({ rules: z.record(z.string(), z.boolean()), extraRules: z.array(S.ExtraRule) }), b),
    integrationLog: () => get('/api/integrations/log', ok({ log: z.array(S.SyncLogEntry) })),

    list: (path: string, key: string) => get(path, anyList(key)),

    portals: () => get('/api/portals', ok({ state: z.record(z.string(), z.unknown()) })),
    issuePortal: (custId: string) => post('/api/portal/issue', ok({ url: z.string(), portal: S.PortalEntry }), { custId }),
    togglePortal: (key: string, published?: boolean) => post(`/api/portal/${e(key)}`, ok({ portal: S.PortalEntry }), published === undefined ? { action: 'toggle' } : { action: 'toggle', published }),
    portalView: (t: string) => get('/api/portal/view', S.PortalView, { t }),
    portalInquiry: (t: string, q: { kind: string; message: string; name?: string; email?: string }) =>
      post('/api/portal/inquiry', ok({ ref: z.string().optional(), ticket: S.Ticket.optional() }), { ...q, t }, { t }),

    adminLogin: (password: string) => post('/api/admin/login', ok({ token: z.string() }), { password }),
    adminTenants: () => get('/api/admin/tenants', ok({ tenants: z.array(S.Tenant), stats: S.TenantStats.optional() })),
    adminTenant: (id: string) => get(`/api/admin/tenant/${e(id)}`, ok({ tenant: S.Tenant, dashboards: z.array(S.AnyRecord).optional(), published: z.array(S.AnyRecord).optional() })),
    adminCreateTenant: (t: { name: string; plan?: string; seats?: number; email?: string }) => post('/api/admin/tenant', ok({ tenant: S.Tenant }), t),
    adminUpdateTenant: (id: string, t: Partial<S.Tenant>) => post(`/api/admin/tenant/${e(id)}`, ok({ tenant: S.Tenant }), t),
    adminDeleteTenant: (id: string) => post(`/api/admin/tenant/${e(id)}/delete`, empty),
    adminIssuePortal: (id: string, client: string) => post(`/api/admin/tenant/${e(id)}/client`, ok({ url: z.string() }), { client }),
    adminSubadmins: () => get('/api/admin/subadmins', ok({ subadmins: z.array(S.SubAdmin), tenants: z.array(S.AnyRecord).optional() })),
    adminCreateSubadmin: (s: { name: string; email: string; password?: string; tenants: string[]; canDelete: boolean }) =>
      post('/api/admin/subadmin', ok({ subadmin: S.SubAdmin, password: z.string().optional() }), s),
    adminDeleteSubadmin: (id: string) => post(`/api/admin/subadmin/${e(id)}/delete`, empty),
    adminWorkspaces: () => get('/api/admin/workspaces', ok({ workspaces: z.array(S.AnyRecord), plans: z.array(S.AnyRecord).optional() })),
    adminSetPlan: (tid: string, b: { planKey: string; status?: string; reason?: string }) => post(`/api/admin/workspace/${e(tid)}/plan`, S.AnyRecord, b),
    adminBackups: () => get('/api/admin/backups', ok({ log: z.array(S.Backup) })),
    backup: (tenantId: string, reason: string) => post(`/api/backup/${e(tenantId)}`, ok({ backup: S.Backup }), { reason }),
    subadminLogin: (email: string, password: string) => post('/api/subadmin/login', ok({ token: z.string(), sub: S.AnyRecord.optional() }), { email, password }),
    subadminMe: () => get('/api/subadmin/me', ok({ sub: S.AnyRecord, tenants: z.array(S.Tenant) })),
    subadminTenant: (id: string) => get(`/api/subadmin/tenant/${e(id)}`, ok({ tenant: S.Tenant })),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
