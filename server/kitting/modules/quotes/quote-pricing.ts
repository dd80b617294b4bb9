/**
 * Quote arithmetic — the one place that turns quote lines into yen figures.
 *
 * Relations fixed by the contract: tax is 10 % of a subtotal; arr = 12 × monthly run
 * subtotal; y1 = ini + arr; gpRate = 100 − costRate; gp = y1 × gpRate / 100; perDevice
 * is null without a quantity; the volume discount applies from 1000 devices.
 *
 * THIS PROJECT'S CHOICES (the contract leaves them open):
 * - Rounding rule: money is integer yen and every derived yen figure (discount, tax,
 *   gp, perDevice) is rounded DOWN to the yen (端数切り捨て), computed in integers so
 *   no floating-point drift can change a yen. Line amounts q × p are exact integers.
 * - Volume discount (ボリューム値引き): a tiered rate on both the initial and the
 *   monthly line subtotals, before tax — 1000–2999 devices 3 %, 3000–4999 devices 5 %,
 *   5000 devices or more 8 %. Below 1000 there is no discount.
 * - perDevice is the first-year amount (y1, tax excluded) per device.
 */

const TAX_RATE = 0.1;
const VOLUME_MIN_QTY = 1000;

/** Volume tiers in basis points (1 bp = 0.01 %), highest threshold first. */
const VOLUME_TIERS: readonly { minQty: number; bp: number }[] = [
  { minQty: 5000, bp: 800 },
  { minQty: 3000, bp: 500 },
  { minQty: VOLUME_MIN_QTY, bp: 300 },
];

export interface QuoteLine {
  n: string;
  q: number;
  p: number;
  d: string;
}

export interface QuoteTotals {
  iniGross: number;
  iniDiscount: number;
  ini: number;
  iniTax: number;
  iniTotal: number;
  runGross: number;
  runDiscount: number;
  run: number;
  runTax: number;
  runTotal: number;
  arr: number;
  y1: number;
  costRate: number;
  gp: number;
  gpRate: number;
  deviceQty: number;
  perDevice: number | null;
  volumeApplied: boolean;
  volumeQty: number;
  volumeMinQty: number;
  /** Discount rate in percent (0 below the threshold). */
  volumeRate: number;
  taxRate: number;
}

/** Discount rate of a device quantity, in basis points. */
export function volumeBp(qty: number): number {
  for (const t of VOLUME_TIERS) if (qty >= t.minQty) return t.bp;
  return 0;
}

/** floor(amount × bp / 10000) for a non-negative integer amount. */
function applyBp(amount: number, bp: number): number {
  return Math.floor((amount * bp) / 10000);
}

/** Consumption tax of a subtotal: 10 %, rounded down to the yen. */
export function taxOf(subtotal: number): number {
  return Math.floor(subtotal / 10);
}

const sum = (lines: QuoteLine[]) => lines.reduce((s, l) => s + l.q * l.p, 0);

export function computeTotals(input: { ini: QuoteLine[]; run: QuoteLine[]; costRate: number; qty: number }): QuoteTotals {
  const deviceQty = Math.max(0, Math.floor(input.qty));
  const bp = volumeBp(deviceQty);
  const iniGross = sum(input.ini);
  const runGross = sum(input.run);
  const iniDiscount = applyBp(iniGross, bp);
  const runDiscount = applyBp(runGross, bp);
  const ini = iniGross - iniDiscount;
  const run = runGross - runDiscount;
  const iniTax = taxOf(ini);
  const runTax = taxOf(run);
  const arr = 12 * run;
  const y1 = ini + arr;
  // gpRate kept to two decimals so that the integer product below is exact.
  const gpRateBp = Math.round((100 - input.costRate) * 100);
  const gpRate = gpRateBp / 100;
  const gp = applyBp(y1, gpRateBp);
  return {
    iniGross,
    iniDiscount,
    ini,
    iniTax,
    iniTotal: ini + iniTax,
    runGross,
    runDiscount,
    run,
    runTax,
    runTotal: run + runTax,
    arr,
    y1,
    costRate: input.costRate,
    gp,
    gpRate,
    deviceQty,
    perDevice: deviceQty > 0 ? Math.floor(y1 / deviceQty) : null,
    volumeApplied: bp > 0,
    volumeQty: deviceQty,
    volumeMinQty: VOLUME_MIN_QTY,
    volumeRate: bp / 100,
    taxRate: TAX_RATE,
  };
}
