/**
 * The one typed client of the Kitting Operations API, used by the renderer (bench window,
 * central web, portal page and admin console). Built on fetch and the zod schemas of
 * ./schemas; no node:, electron or DOM-only code.
 */
import { z } from 'zod';
import * as S from './schemas';
import { errorText, type ApiErrorCode } from './contracts/errors';

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

  /** The contract's error code of this failure (`error`, or `code` where the body names one). */
  is(code: ApiErrorCode): boolean {
    return this.error === code || this.body?.code === code;
  }

  /** True when the server has no such route yet (an API that has not landed). */
  get missingRoute(): boolean {
    return this.status === 404 && this.error === 'not_found' && /^no route/.test(this.serverMessage ?? '');
  }
}


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
    const code = typeof err.body?.code === 'string' ? err.body.code : null;
    const known = errorText(err.error) ?? (code ? errorText(code) : undefined);
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
    syncStatus: () => get('/api/sync/status', S.syncResponses.status),

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
    createShipment: (s: S.ShipmentCreate) => post('/api/shipment', S.shipmentResponses.create, s),
    updateShipment: (id: string, s: S.ShipmentPatch) => post(`/api/shipment/${e(id)}`, S.shipmentResponses.update, s),
    deleteShipment: (id: string) => post(`/api/shipment/${e(id)}/delete`, S.shipmentResponses.remove),

    inquiries: () => get('/api/inquiries', S.inquiryResponses.list),
    createInquiry: (i: S.InquiryCreate) => post('/api/inquiry', S.inquiryResponses.create, i),
    updateInquiry: (id: string, i: S.InquiryPatch) => post(`/api/inquiry/${e(id)}`, S.inquiryResponses.update, i),
    deleteInquiry: (id: string) => post(`/api/inquiry/${e(id)}/delete`, S.inquiryResponses.remove),

    tickets: () => get('/api/tickets', S.ticketResponses.list),
    createTicket: (t: S.TicketCreate) => post('/api/ticket', S.ticketResponses.create, t),
    updateTicket: (id: string, t: S.TicketPatch) => post(`/api/ticket/${e(id)}`, S.ticketResponses.update, t),
    deleteTicket: (id: string) => post(`/api/ticket/${e(id)}/delete`, S.ticketResponses.remove),
    ticketMessages: (id: string) => get(`/api/ticket/${e(id)}/messages`, S.ticketResponses.messages),
    postTicketMessage: (id: string, m: S.TicketMessageInput) => post(`/api/ticket/${e(id)}/message`, S.ticketResponses.message, m),

    customers: () => get('/api/customers', S.customerResponses.list),
    createCustomer: (c: S.CustomerCreate) => post('/api/customer', S.customerResponses.create, c),
    updateCustomer: (id: string, c: S.CustomerPatch) => post(`/api/customer/${e(id)}`, S.customerResponses.update, c),
    deleteCustomer: (id: string) => post(`/api/customer/${e(id)}/delete`, S.customerResponses.remove),
    renewals: () => get('/api/renewals', S.customerResponses.renewals),

    certs: () => get('/api/certs', S.certResponses.list),
    cert: (no: string) => get(`/api/cert/${e(no)}`, S.certResponses.one),
    issueCert: (c: S.CertInput) => post('/api/cert', S.certResponses.issue, c),
    certPdfUrl: (no: string) => url(`/api/cert/${e(no)}/pdf`),
    revokeCert: (no: string, reason: string) => post(`/api/cert/${e(no)}/revoke`, S.certVerifyResponses.revoke, { reason }),

    labelTemplates: () => get('/api/labels/templates', S.labelResponses.templates),
    saveLabelTemplate: (t: S.LabelTemplateInput) =>
      post('/api/labels/template', S.labelResponses.save, t),
    deleteLabelTemplate: (id: string) => post(`/api/labels/template/${e(id)}/delete`, S.labelResponses.remove),
    labelLog: () => get('/api/labels/log', S.labelResponses.log),
    addLabelLog: (entry: S.LabelLogInput) => post('/api/labels/log', S.labelResponses.addLog, entry),

    quoteCatalog: () => get('/api/quote/catalog', S.quoteResponses.catalog),
    newQuote: (q: S.NewQuoteQuery & Query) => get('/api/quote/new', S.quoteResponses.fresh, q),
    quotes: () => get('/api/quotes', S.quoteResponses.list),
    quote: (id: string) => get(`/api/quote/${e(id)}`, S.quoteResponses.one),
    previewQuote: (q: S.QuoteInput) => post('/api/quote/preview', S.quoteResponses.preview, q),
    createQuote: (q: S.QuoteInput) => post('/api/quote', S.quoteResponses.one, q),
    updateQuote: (id: string, q: S.QuoteInput) => post(`/api/quote/${e(id)}`, S.quoteResponses.one, q),
    issueQuote: (id: string) => post(`/api/quote/${e(id)}/issue`, S.quoteResponses.issue),
    quoteCsvUrl: (id: string) => url(`/api/quote/${e(id)}/csv`),

    invoices: () => get('/api/invoices', S.invoiceResponses.list),
    createInvoice: (i: S.InvoiceCreate) => post('/api/invoice', S.invoiceResponses.one, i),
    updateInvoice: (id: string, i: S.InvoicePatch) => post(`/api/invoice/${e(id)}`, S.invoiceResponses.one, i),
    invoiceFromQuote: (quoteId: string, b: S.InvoiceFromQuote = {}) => post(`/api/quote/${e(quoteId)}/invoice`, S.invoiceResponses.one, b),
    issueInvoices: (month?: string) => post('/api/invoices/issue', S.invoiceResponses.issue, month ? { month } : {}),
    billingSummary: () => get('/api/billing/summary', S.invoiceResponses.summary),

    shifts: () => get('/api/shifts', S.shiftResponses.roster),
    stageShiftDraft: (grid: S.Grid) => post('/api/shifts/draft', S.shiftResponses.draft, { grid }),
    applyShiftDraft: () => post('/api/shifts/draft/apply', S.shiftResponses.apply),
    discardShiftDraft: () => post('/api/shifts/draft/discard', S.shiftResponses.discard),
    shiftHistory: () => get('/api/shifts/history', S.shiftResponses.history),
    restoreShifts: (hid: string) => post(`/api/shifts/restore/${e(hid)}`, S.shiftResponses.restore),
    staff: () => get('/api/staff', S.staffResponses.list),
    punch: (staffId: string, dir?: 'in' | 'out') => post(`/api/timeclock/${e(staffId)}/punch`, S.staffResponses.punch, dir ? { dir } : {}),

    dockReservations: () => get('/api/dock/reservations', S.dockResponses.list),
    saveDockReservation: (r: S.DockReservationInput) => post('/api/dock/reservation', S.dockResponses.save, r),
    deleteDockReservation: (id: string) => post(`/api/dock/reservation/${e(id)}/delete`, S.dockResponses.remove),

    capacity: (from?: string) => get('/api/capacity', S.capacityResponses.view, from ? { from } : undefined),
    saveCapacityConfig: (c: S.CapacityConfigInput) => post('/api/capacity/config', S.capacityResponses.config, c),
    createLoad: (l: S.LoadInput) => post('/api/capacity/load', S.capacityResponses.load, l),
    updateLoad: (id: string, l: S.LoadInput) => post(`/api/capacity/load/${e(id)}`, S.capacityResponses.load, l),
    deleteLoad: (id: string) => post(`/api/capacity/load/${e(id)}/delete`, S.capacityResponses.remove),

    daas: () => get('/api/daas', S.daasResponses.view),
    saveDaasSim: (sim: S.DaasSimInput) => post('/api/daas/sim', S.daasResponses.sim, sim),
    sendDaas: (b: S.DaasSendInput) => post('/api/daas/send', S.daasResponses.send, b),
    saveDaasQuote: (q: S.DaasQuoteInput) => post('/api/daas/quote', S.daasResponses.quote, q),
    setDaasStatus: (id: string, status: S.DaasStatus) => post(`/api/daas/quote/${e(id)}/status`, S.daasResponses.status, { status }),
    deleteDaasQuote: (id: string) => post(`/api/daas/quote/${e(id)}/delete`, S.daasResponses.remove),

    storeCatalog: () => get('/api/store/catalog', S.storeResponses.catalog),
    storeOrders: () => get('/api/store/orders', S.storeResponses.orders),
    createStoreOrder: (o: S.StoreOrderInput) => post('/api/store/order', S.storeResponses.order, o),
    updateStoreOrder: (id: string, o: S.StoreOrderEdit) => post(`/api/store/order/${e(id)}`, S.storeResponses.order, o),
    deleteStoreOrder: (id: string) => post(`/api/store/order/${e(id)}/delete`, S.storeResponses.remove),
    createStoreProduct: (p: S.StoreProductInput) => post('/api/store/product', S.storeResponses.product, p),

    tradein: () => get('/api/tradein', S.tradeinResponses.view),
    createBuyback: (b: S.BuybackInput) => post('/api/tradein/buyback', S.tradeinResponses.buyback, b),
    deleteBuyback: (id: string) => post(`/api/tradein/buyback/${e(id)}/delete`, S.tradeinResponses.remove),
    createStock: (s: S.RefurbStockInput) => post('/api/tradein/inventory', S.tradeinResponses.stock, s),
    deleteStock: (id: string) => post(`/api/tradein/inventory/${e(id)}/delete`, S.tradeinResponses.remove),
    createReceipt: (r: S.BuybackReceiptInput) => post('/api/tradein/receipt', S.tradeinResponses.receipt, r),
    deleteReceipt: (no: string) => post(`/api/tradein/receipt/${e(no)}/delete`, S.tradeinResponses.remove),

    reports: () => get('/api/reports', S.reportResponses.list),
    previewReport: (q: S.ReportQuery) => get('/api/report/generate', S.reportResponses.generate, q),
    saveReport: (q: S.ReportQuery) => post('/api/report/generate', S.reportResponses.generate, q),
    report: (id: string) => get(`/api/report/${e(id)}`, S.reportResponses.one),

    compliance: () => get('/api/compliance', S.complianceResponses.view),
    setControls: (key: S.ComplianceKey, controls: boolean[]) => put(`/api/compliance/controls/${e(key)}`, S.complianceResponses.controls, { controls }),
    setCapaState: (id: string, state: string) => post(`/api/compliance/capa/${e(id)}`, S.complianceResponses.capa, { state }),
    auditLog: () => get('/api/audit-log', S.complianceResponses.auditLog),
    addAudit: (a: S.AuditInput) => post('/api/audit-log', S.complianceResponses.audit, a),
    custody: (r: S.CustodyInput) => post('/api/compliance/custody', S.complianceResponses.custody, r),
    complianceReport: (b: S.ComplianceReportInput) => post('/api/compliance/report', S.complianceResponses.report, b),

    integrationRules: () => get('/api/integrations/rules', S.integrationResponses.rules),
    saveIntegrationRules: (b: S.IntegrationRulesInput) => put('/api/integrations/rules', S.integrationResponses.saveRules, b),
    integrationLog: () => get('/api/integrations/log', S.integrationResponses.log),

    list: (path: string, key: string) => get(path, anyList(key)),

    portals: () => get('/api/portals', S.portalResponses.portals),
    issuePortal: (custId: string) => post('/api/portal/issue', S.portalResponses.issue, { custId }),
    togglePortal: (key: string, published?: boolean) => post(`/api/portal/${e(key)}`, S.portalResponses.action, published === undefined ? { action: 'toggle' } : { action: 'toggle', published }),
    portalView: (t: string) => get('/api/portal/view', S.portalResponses.view, { t }),
    portalInquiry: (t: string, q: S.PortalInquiry) =>
      post('/api/portal/inquiry', S.portalResponses.inquiry, { ...q, t }, { t }),

    adminLogin: (password: string) => post('/api/admin/login', S.adminResponses.login, { password }),
    adminTenants: () => get('/api/admin/tenants', S.adminResponses.tenants),
    adminTenant: (id: string) => get(`/api/admin/tenant/${e(id)}`, S.adminResponses.tenant),
    adminCreateTenant: (t: S.TenantCreate) => post('/api/admin/tenant', S.adminResponses.saveTenant, t),
    adminUpdateTenant: (id: string, t: S.TenantPatch) => post(`/api/admin/tenant/${e(id)}`, S.adminResponses.saveTenant, t),
    adminDeleteTenant: (id: string) => post(`/api/admin/tenant/${e(id)}/delete`, S.adminResponses.removeTenant),
    adminIssuePortal: (id: string, client: string) => post(`/api/admin/tenant/${e(id)}/client`, S.adminResponses.client, { client }),
    adminSubadmins: () => get('/api/admin/subadmins', S.adminResponses.subadmins),
    adminCreateSubadmin: (s: S.SubadminInput) =>
      post('/api/admin/subadmin', S.adminResponses.createSubadmin, s),
    adminDeleteSubadmin: (id: string) => post(`/api/admin/subadmin/${e(id)}/delete`, S.adminResponses.removeSubadmin),
    adminWorkspaces: () => get('/api/admin/workspaces', S.adminResponses.workspaces),
    adminSetPlan: (tid: string, b: S.WorkspacePlanChange) => post(`/api/admin/workspace/${e(tid)}/plan`, S.adminResponses.plan, b),
    adminBackups: () => get('/api/admin/backups', S.adminResponses.backups),
    backup: (tenantId: string, reason: string) => post(`/api/backup/${e(tenantId)}`, S.tenantToolResponses.backup, { reason }),
    subadminLogin: (email: string, password: string) => post('/api/subadmin/login', S.subadminResponses.login, { email, password }),
    subadminMe: () => get('/api/subadmin/me', S.subadminResponses.me),
    subadminTenant: (id: string) => get(`/api/subadmin/tenant/${e(id)}`, S.subadminResponses.tenant),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
