import { z } from 'zod';
import { collectionSchema, derivedDate, derivedInt, derivedText, ruleFields, stamp } from '../../http/collection-schema';
import { Field } from '../../../../shared/fields';
import {
  BATTERY_SWAP_COST, BUYBACKS, buybackRules, MAX_ITEM_QTY, MAX_ITEMS, MAX_YEN, RECEIPTS, RECEIPT_NUMBERS, receiptRules, REFURB_COST, REFURB_STOCK, stockRules,
} from './tradein.service';

/**
 * What a bench may push into the trade-in collections: each field the trade-in routes accept, read by
 * their own rules, and the figures, dates and numbers the server derives, within their bounds.
 */
const MAX_REFURB = Math.max(...Object.values(REFURB_COST)) + BATTERY_SWAP_COST;

const buybackSchema = collectionSchema(BUYBACKS, ruleFields(buybackRules), {
  date: derivedDate(),
  refurb: derivedInt(0, MAX_REFURB),
  residual: derivedInt(-MAX_REFURB, MAX_YEN),
  margin: derivedInt(-(MAX_YEN + MAX_REFURB), MAX_YEN),
  ts: stamp(),
});

const refurbStockSchema = collectionSchema(REFURB_STOCK, ruleFields(stockRules), { margin: derivedInt(-MAX_YEN, MAX_YEN), ts: stamp() });

/** A receipt is keyed by its number (no), which its id repeats. */
const buybackReceiptSchema = collectionSchema(RECEIPTS, ruleFields(receiptRules), {
  no: new Field(z.string().regex(RECEIPT_NUMBERS.pattern, 'must be a receipt number KIT-BUY-YYYY-NNNN')),
  date: derivedDate(),
  dateJa: derivedText(20),
  total: derivedInt(0, MAX_ITEMS * MAX_ITEM_QTY * MAX_YEN),
  ts: stamp(),
});

export const tradeinSchemas = [buybackSchema, refurbStockSchema, buybackReceiptSchema];
