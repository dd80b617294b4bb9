import { useSyncExternalStore } from 'react';
import { ApiError } from '../../../shared/api/client';
import { api, describeError } from '../api';
import { playScanSound } from '../lib/sound';
import type { ScanResult } from '../lib/scan';
import { RECEIVED_STATUS } from '../../../shared/devices';
import { deviceBody, type RegisterValues } from '../lib/register-values';

/**
 * The 入荷セッション of this bench, kept outside the screen: its set-up and results stay while the
 * technician looks at another screen (registrations already queued keep saving), and they are written
 * to this PC's localStorage so a reload or a restart of the window finds the session as it was.
 */
export type EntryState = 'waiting' | 'saving' | 'ok' | 'duplicate' | 'error' | 'undone';
export interface Entry {
  seq: number;
  imei: string;
  state: EntryState;
  message: string;
  at: number;
  /** Was waiting or saving when the window was closed: a 409 on the retry means the first try got through. */
  resumed?: boolean;
}
export interface Session {
  values: RegisterValues | null;
  setupOpen: boolean;
  entries: Entry[];
  seq: number;
}

export { RECEIVED_STATUS };
const STORAGE_KEY = 'kitting.receivingSession.v1';
/** Results kept (the newest); older ones are dropped from the list, never from the ledger. */
const MAX_ENTRIES = 5000;
const STATES: readonly EntryState[] = ['waiting', 'saving', 'ok', 'duplicate', 'error', 'undone'];

const str = (v: unknown, max: number) => (typeof v === 'string' ? v.slice(0, max) : '');

/** Read the stored session, trusting nothing in it (another version of the app may have written it). */
function load(): Session {
  const empty: Session = { values: null, setupOpen: true, entries: [], seq: 0 };
  try {
    const raw = typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEY);
    if (!raw) return empty;
    const o = JSON.parse(raw) as Record<string, unknown>;
    const v = o.values && typeof o.values === 'object' ? (o.values as Record<string, unknown>) : null;
    const values = v ? { model: str(v.model, 60), cust: str(v.cust, 60), mdm: str(v.mdm, 40), status: str(v.status, 20) || RECEIVED_STATUS, loc: str(v.loc, 120) } : null;
    const entries: Entry[] = [];
    for (const e of Array.isArray(o.entries) ? o.entries.slice(0, MAX_ENTRIES) : []) {
      if (!e || typeof e !== 'object') continue;
      const r = e as Record<string, unknown>;
      const state = STATES.find((s) => s === r.state);
      if (!state || typeof r.seq !== 'number') continue;
      const pending = state === 'waiting' || state === 'saving';
      entries.push({ seq: r.seq, imei: str(r.imei, 40), state: pending ? 'waiting' : state, message: pending ? '登録待ち（再開）' : str(r.message, 300), at: typeof r.at === 'number' ? r.at : 0, ...(pending || r.resumed === true ? { resumed: true } : {}) });
    }
    const seq = Math.max(typeof o.seq === 'number' && Number.isFinite(o.seq) ? o.seq : 0, ...entries.map((e) => e.seq));
    return { values, setupOpen: !values || o.setupOpen !== false, entries, seq };
  } catch {
    return empty;
  }
}

let state: Session = load();
const listeners = new Set<() => void>();
let queue: number[] = state.entries.filter((e) => e.state === 'waiting').map((e) => e.seq).reverse();
let working = false;
/** IMEIs in the ledger (from the screen's last load, plus what this session registered). */
let known: Set<string> | null = null;

function save(): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(state));
  } catch {
    // storage full or disabled: the session still works for as long as the window is open
  }
}
function set(next: Partial<Session>): void {
  state = { ...state, ...next };
  save();
  for (const l of listeners) l();
}
function update(seq: number, patch: Partial<Entry>): void {
  set({ entries: state.entries.map((e) => (e.seq === seq ? { ...e, ...patch } : e)) });
}
function add(e: Omit<Entry, 'seq' | 'at'>): Entry {
  const entry = { ...e, seq: state.seq + 1, at: Date.now() };
  set({ seq: entry.seq, entries: [entry, ...state.entries].slice(0, MAX_ENTRIES) });
  return entry;
}

export function useReceivingSession(): Session {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
}

/** The ledger's IMEIs as the screen loaded them. */
export function setKnown(imeis: Iterable<string>): void {
  known = new Set(imeis);
  void work();
}

const running = () => !!state.values && !state.setupOpen;

async function work(): Promise<void> {
  if (working || !running() || !known) return;
  working = true;
  try {
    for (let seq = queue.shift(); seq !== undefined; seq = queue.shift()) {
      const v = state.values;
      const entry = state.entries.find((e) => e.seq === seq);
      if (!v || !running()) {
        if (seq !== undefined) queue.unshift(seq);
        break;
      }
      if (!entry || entry.state !== 'waiting') continue;
      update(seq, { state: 'saving', message: '登録中…' });
      try {
        await api.createDevice(deviceBody(entry.imei, v));
        known.add(entry.imei);
        update(seq, { state: 'ok', message: `${v.model}・${v.cust} として登録しました` });
        playScanSound('ok');
      } catch (err) {
        if (err instanceof ApiError && err.status === 409) {
          known.add(entry.imei);
          if (entry.resumed) update(seq, { state: 'ok', message: '登録済みを確認しました（中断前に登録されていました）' });
          else {
            update(seq, { state: 'duplicate', message: 'すでに台帳に登録されています' });
            playScanSound('duplicate');
          }
        } else {
          update(seq, { state: 'error', message: describeError(err) });
          playScanSound('error');
        }
      }
    }
  } finally {
    working = false;
  }
}

/** IMEIs this session has queued, is saving or has registered. */
function inSession(imei: string): boolean {
  return state.entries.some((e) => e.imei === imei && (e.state === 'waiting' || e.state === 'saving' || e.state === 'ok'));
}

/** A scan on the receiving screen. Before the session is started it is refused out loud, never dropped silently. */
export function receiveScan(scan: Exclude<ScanResult, { kind: 'empty' }>): void {
  if (!running()) {
    const message = state.values
      ? '入荷設定を変更中です。「スキャンを開始」を押してから、もう一度スキャンしてください'
      : '入荷設定がまだです。設定を選んで「スキャンを開始」を押してから、もう一度スキャンしてください';
    add({ imei: scan.value, state: 'error', message });
    playScanSound('error');
    return;
  }
  if (scan.kind !== 'imei') {
    add({ imei: scan.value, state: 'error', message: scan.message });
    playScanSound('error');
    return;
  }
  const imei = scan.value;
  const dupInSession = inSession(imei);
  if (known?.has(imei) || dupInSession) {
    add({ imei, state: 'duplicate', message: dupInSession ? 'このセッションでスキャン済みです' : 'すでに台帳に登録されています' });
    playScanSound('duplicate');
    return;
  }
  const entry = add({ imei, state: 'waiting', message: '登録待ち' });
  queue.push(entry.seq);
  void work();
}

export function startSession(values: RegisterValues): void {
  set({ values, setupOpen: false });
  void work();
}
export function openSetup(): void {
  set({ setupOpen: true });
}

/** Take back the last registration (the device is deleted from the ledger). */
export async function undoLast(): Promise<void> {
  const last = state.entries.find((e) => e.state === 'ok');
  if (!last) return;
  try {
    await api.deleteDevice(last.imei);
    known?.delete(last.imei);
    update(last.seq, { state: 'undone', message: '登録を取り消しました（台帳から削除）' });
  } catch (err) {
    update(last.seq, { message: `取り消せませんでした: ${describeError(err)}` });
    playScanSound('error');
  }
}

/** End the session: results and set-up are cleared (the ledger keeps every registered device). */
export function clearSession(): void {
  queue = [];
  set({ values: null, setupOpen: true, entries: [], seq: 0 });
}
