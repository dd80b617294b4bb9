import { deviceChip } from '../../../../shared/devices';
import { generateImei } from '../../../../shared/imei';
import type { CountedCollection } from '../../../core/store/count-guard';
import { declareSeries, issueNumber, padNumber } from '../../../core/store/series';
import type { Doc, Tx } from '../../../core/store/types';

export const DEVICES = 'devices';
/** Devices count against a central tenant's plan. */
export const devicesPlanCounted: CountedCollection = { coll: DEVICES, resource: 'devices' };
/** The generated serial of a device ends with its asset number (PXL-000179): it follows a renumbered asset. */
function serialFollow(doc: Doc, _b: string, _a: string, oldN: number, newN: number): Doc {
  const serial = typeof doc.serial === 'string' ? doc.serial : '';
  const tail = `-${padNumber(oldN, 6)}`;
  return serial.endsWith(tail) ? { serial: `${serial.slice(0, -tail.length)}-${padNumber(newN, 6)}` } : {};
}

/** Asset numbers HK-26-<n> and the serial index share this series (a bench registers thousands a day). */
export const ASSET_NUMBERS = declareSeries({
  name: 'asset',
  period: 'none',
  coll: DEVICES,
  field: 'asset',
  keyed: false,
  format: (n) => `HK-26-${n}`,
  pattern: /^HK-26-(?<n>\d+)$/,
  reserve: 6000,
  follow: serialFollow,
});
export const ASSET_SERIES = ASSET_NUMBERS.name;
interface ModelDefaults {
  prefix: string;
  maker: string;
  os: string;
}

/** Maker, OS and serial prefix from the model name (iPad models switch to iPadOS). */
export function modelDefaults(model: string): ModelDefaults {
  const m = model.toLowerCase();
  const iphone = /iphone\s*([a-z0-9]+)/.exec(m);
  if (iphone) return { prefix: `IP${iphone[1].slice(0, 2).toUpperCase()}`, maker: 'Apple', os: 'iOS' };
  if (m.includes('ipad')) return { prefix: m.includes('air') ? 'IPDA' : m.includes('pro') ? 'IPDP' : m.includes('mini') ? 'IPDM' : 'IPD', maker: 'Apple', os: 'iPadOS' };
  if (m.includes('galaxy')) return { prefix: 'GLX', maker: 'Samsung', os: 'Android' };
  if (m.includes('pixel')) return { prefix: 'PXL', maker: 'Google', os: 'Android' };
  if (m.includes('aquos')) return { prefix: 'AQS', maker: 'SHARP', os: 'Android' };
  if (m.includes('arrows')) return { prefix: 'ARW', maker: 'FCNT', os: 'Android' };
  if (m.includes('xperia')) return { prefix: 'XPR', maker: 'Sony', os: 'Android' };
  const letters = model.replace(/[^A-Za-z0-9]/g, '').toUpperCase().slice(0, 4);
  return { prefix: letters || 'DEV', maker: '', os: '' };
}

/** A 15-digit IMEI no device of this workspace has yet. */
export async function freshImei(tx: Tx, taken: Set<string> = new Set()): Promise<string> {
  for (;;) {
    const imei = generateImei();
    if (!taken.has(imei) && !(await tx.get(DEVICES, imei))) return imei;
  }
}

/** Fill the generated defaults of a new device: imei, serial, asset, maker, os, chip, stamps. */
export async function completeDevice(tx: Tx, input: Doc, taken?: Set<string>): Promise<Doc> {
  const imei = typeof input.imei === 'string' && input.imei !== '' ? input.imei : await freshImei(tx, taken);
  const { n, value: asset } = await issueNumber(tx, ASSET_NUMBERS);
  const model = String(input.model);
  const defs = modelDefaults(model);
  const now = Date.now();
  const { imei: _given, ...rest } = input;
  return {
    imei,
    ...rest,
    serial: input.serial || `${defs.prefix}-${padNumber(n, 6)}`,
    asset: input.asset || asset,
    maker: input.maker || defs.maker,
    os: input.os || defs.os,
    chip: deviceChip(String(input.status)),
    created: now,
    updated: now,
  };
}
