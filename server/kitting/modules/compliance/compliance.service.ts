import { jstDate, jstMonth, jstStamp } from '../../../../shared/dates';
import { declareSeries, followSeq, padNumber } from '../../store/series';
import type { Doc } from '../../store/types';

export const COMPLIANCE = 'compliance';
export const CONTROLS_ID = 'controls';
export const CAPA = 'capa';
export const AUDIT_LOG = 'auditLog';
/** Audit rows al-0001, … (seq repeats the number). */
export const AUDIT_NUMBERS = declareSeries({
  name: 'audit',
  period: 'none',
  coll: AUDIT_LOG,
  field: 'id',
  keyed: true,
  format: (n) => `al-${padNumber(n, 4)}`,
  pattern: /^al-(?<n>\d{4,})$/,
  reserve: 500,
  follow: followSeq,
});
export const AUDIT_SERIES = AUDIT_NUMBERS.name;
export const CUSTODY = 'custody';

export const CONTROL_KEYS = ['isms', 'pmark', 'soc2', 'appi'] as const;
export type ControlKey = (typeof CONTROL_KEYS)[number];
/** Each control set keeps its first 100 values. */
export const CONTROLS_MAX = 100;
export const CUSTODY_MAX_STEPS = 50;

export type AuditRow = [ts: string, user: string, action: string, target: string, result: string, cat: string];

export function auditRow(d: Doc): AuditRow {
  const s = (k: string) => (typeof d[k] === 'string' ? (d[k] as string) : '');
  return [s('ts'), s('user'), s('action'), s('target'), s('result'), s('cat')];
}

export const nowStamp = () => jstStamp();

/** YYYY-MM-DD that is a real calendar date. */
export function isDate(v: unknown): v is string {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

/** 'YYYY-MM-DD HH:mm' with a real date and time. */
export function isStamp(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2})$/.exec(v);
  return !!m && isDate(m[1]) && Number(m[2]) < 24 && Number(m[3]) < 60;
}

export const isMonth = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-(0[1-9]|1[0-2])$/.test(v);

export const today = () => jstDate();
export const thisMonth = () => jstMonth();

/** CAPA items still open: not closed (完了 / クローズ / 是正済). */
export function isOpen(capa: Doc): boolean {
  return !['完了', 'クローズ', '是正済', 'closed', 'done'].includes(String(capa.state ?? ''));
}
