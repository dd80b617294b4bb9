/**
 * The contract between the bench window (renderer/) and the desktop shell: `window.station`.
 * Imports nothing — the renderer (renderer/src/lib/station.ts), the preload and the main process all use it.
 *
 * The per-launch secret is not part of it: the main process adds the x-station-secret header
 * to every request of the app's own origin, so plain fetch('/api/...') works in the window.
 */

export type LabelSize = 's' | 'm' | 'l';

/** Outcome of every print path; `reason` is a Japanese message for the technician. */
export interface PrintResult {
  ok: boolean;
  reason?: string;
}

export interface PrinterInfo {
  name: string;
  displayName: string;
  description: string;
  isDefault: boolean;
}

export interface LabelPrintRequest {
  /** A complete HTML document of one label (inline styles, images as data: URLs or app paths). */
  html: string;
  widthMm: number;
  heightMm: number;
  /** Printer name; defaults to the label printer of the settings, then the system default. */
  printer?: string;
  copies?: number;
  /** Template size recorded in the label print log; defaults to the settings' label size. */
  size?: LabelSize;
  /** The device the label is for (IMEI and 管理番号), recorded in the label print log. */
  imei?: string;
  asset?: string;
}

export interface ZplPrintRequest {
  zpl: string;
  /** Defaults to the Zebra printer of the settings. */
  host?: string;
  port?: number;
  /** Labels the ZPL prints, for the print log (default 1). */
  count?: number;
  size?: LabelSize;
}

export interface CertificatePrintRequest {
  /** Either a complete HTML document, or a path of the app (e.g. "/certs/KIT-ERZ-2026-0001/print"). */
  html?: string;
  path?: string;
  /** Defaults to the certificate printer of the settings; without one the print dialog opens. */
  printer?: string;
}

export interface SavePdfRequest {
  /** A path of the app answering application/pdf, or an HTML document rendered to A4 PDF. */
  path?: string;
  html?: string;
  /** Suggested file name, e.g. "KIT-ERZ-2026-0001.pdf". */
  fileName: string;
}

export interface SavePdfResult {
  ok: boolean;
  /** Where the file was written. */
  file?: string;
  /** 'canceled' when the technician closed the save dialog, else a Japanese message. */
  reason?: string;
}

export type TestPrintTarget = 'label' | 'zebra' | 'certificate';

export interface LabelDefaults {
  size: LabelSize;
  widthMm: number;
  heightMm: number;
}

export interface ZebraPrinter {
  /** Host name or IP address of a networked Zebra printer; '' when none. */
  host: string;
  port: number;
}

export interface Enrolment {
  centralUrl: string;
  enrolledAt: number;
  workspace: string | null;
}

export interface BenchSettings {
  /** Central server URL; '' works standalone (offline). */
  centralUrl: string;
  benchName: string;
  /** Set by enrol(), never by setSettings(). */
  enrolment: Enrolment | null;
  /** Printer names; '' is the system default printer. */
  labelPrinter: string;
  certificatePrinter: string;
  label: LabelDefaults;
  zebra: ZebraPrinter;
  startAtLogin: boolean;
}

/** What setSettings accepts: any subset, nested objects partially. */
export interface BenchSettingsPatch {
  centralUrl?: string;
  benchName?: string;
  labelPrinter?: string;
  certificatePrinter?: string;
  label?: Partial<LabelDefaults>;
  zebra?: Partial<ZebraPrinter>;
  startAtLogin?: boolean;
}

export interface EnrolRequest {
  centralUrl: string;
  code: string;
}

export interface EnrolResult {
  ok: boolean;
  reason?: string;
  settings?: BenchSettings;
}

export interface VersionInfo {
  app: string;
  electron: string;
  chrome: string;
  node: string;
  platform: string;
}

/** `window.station` in the desktop app; undefined in a plain browser (central web, portal). */
export interface StationBridge {
  version(): Promise<VersionInfo>;
  listPrinters(): Promise<PrinterInfo[]>;
  printLabel(req: LabelPrintRequest): Promise<PrintResult>;
  printZpl(req: ZplPrintRequest): Promise<PrintResult>;
  testPrint(target: TestPrintTarget): Promise<PrintResult>;
  printCertificate(req: CertificatePrintRequest): Promise<PrintResult>;
  savePdf(req: SavePdfRequest): Promise<SavePdfResult>;
  getSettings(): Promise<BenchSettings>;
  setSettings(patch: BenchSettingsPatch): Promise<BenchSettings>;
  enrol(req: EnrolRequest): Promise<EnrolResult>;
}

export type BridgeMethod = keyof StationBridge;

/** One IPC channel per method; main handles exactly these and nothing else. */
export const CHANNELS = {
  version: 'station:version',
  listPrinters: 'station:list-printers',
  printLabel: 'station:print-label',
  printZpl: 'station:print-zpl',
  testPrint: 'station:test-print',
  printCertificate: 'station:print-certificate',
  savePdf: 'station:save-pdf',
  getSettings: 'station:get-settings',
  setSettings: 'station:set-settings',
  enrol: 'station:enrol',
} as const satisfies Record<BridgeMethod, string>;

export const BRIDGE_METHODS = Object.keys(CHANNELS) as BridgeMethod[];

declare global {
  interface Window {
    station?: StationBridge;
  }
}
