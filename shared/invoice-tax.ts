/**
 * Consumption tax of an invoice as a qualified invoice (適格請求書) states it: lines carry a tax rate
 * (10 % standard, 8 % reduced), their amounts are stated either tax-excluded (税抜) or tax-included
 * (税込), and per rate the taxable total and the tax are computed once for the whole invoice, the tax
 * rounded down to the yen (端数切り捨て, once per invoice per rate — never per line).
 * Used by the server (stored figures, PDF) and the renderer (figures while editing).
 */

export const INVOICE_TAX_RATES = [10, 8] as const;
export type InvoiceTaxRate = (typeof INVOICE_TAX_RATES)[number];
export const DEFAULT_TAX_RATE: InvoiceTaxRate = 10;
/** How line amounts are stated: 税抜 (tax added on top) or 税込 (tax included). */
export const TAX_BASES = ['税抜', '税込'] as const;
export type TaxBasis = (typeof TAX_BASES)[number];
export const DEFAULT_TAX_BASIS: TaxBasis = '税抜';

/** Limits of one invoice line. */
export const INVOICE_LINES_MAX = 200;
export const LINE_DESCRIPTION_MAX = 200;
export const LINE_QUANTITY_MAX = 1_000_000;
export const LINE_UNIT_PRICE_MAX = 10_000_000_000;

export interface InvoiceLine {
  description: string;
  quantity: number;
  unitPrice: number;
  taxRate: InvoiceTaxRate;
}

export interface RateTotal {
  rate: InvoiceTaxRate;
  /** Tax-excluded total of this rate's lines (対象金額・税抜). */
  taxable: number;
  /** Consumption tax of this rate, rounded down once. */
  tax: number;
  /** taxable + tax. */
  total: number;
}

export interface InvoiceFigures {
  taxes: RateTotal[];
  /** Sum of the tax-excluded totals. */
  subtotal: number;
  /** Sum of the per-rate taxes. */
  tax: number;
  /** What the customer pays (税込合計): the invoice's amount. */
  total: number;
}

/** A line's amount in whole yen, stated on the invoice's basis. */
export const lineAmount = (l: Pick<InvoiceLine, 'quantity' | 'unitPrice'>): number => Math.round(l.quantity * l.unitPrice);

/** Per-rate taxable totals and taxes (10 % first), each tax rounded down once per rate. */
export function invoiceFigures(lines: readonly InvoiceLine[], basis: TaxBasis): InvoiceFigures {
  const taxes: RateTotal[] = [];
  for (const rate of INVOICE_TAX_RATES) {
    const own = lines.filter((l) => l.taxRate === rate);
    if (own.length === 0) continue;
    const stated = own.reduce((s, l) => s + lineAmount(l), 0);
    if (basis === '税抜') {
      const tax = Math.floor((Math.max(0, stated) * rate) / 100);
      taxes.push({ rate, taxable: stated, tax, total: stated + tax });
    } else {
      const tax = Math.floor((Math.max(0, stated) * rate) / (100 + rate));
      taxes.push({ rate, taxable: stated - tax, tax, total: stated });
    }
  }
  const subtotal = taxes.reduce((s, t) => s + t.taxable, 0);
  const tax = taxes.reduce((s, t) => s + t.tax, 0);
  return { taxes, subtotal, tax, total: subtotal + tax };
}
