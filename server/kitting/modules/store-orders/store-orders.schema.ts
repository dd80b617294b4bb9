import { z } from 'zod';
import { collectionSchema, derivedDate, derivedInt, derivedText, ruleFields, stamp } from '../../http/collection-schema';
import { Field } from '../../../../shared/fields';
import { MAX_LINES, MAX_PRICE, MAX_QTY, orderEditRules, productRules, readLines, STORE_ORDERS, STORE_PRODUCTS } from './store-orders.service';

/**
 * What a bench may push into the accessory store: order and product fields read by the store routes' own
 * rules (lines as the order route stores them, every figure given), and what the server derives within
 * its bounds (dates, counts and totals, stamps).
 */
const MAX_COUNT = MAX_LINES * MAX_QTY;
const MAX_TOTAL = MAX_COUNT * MAX_PRICE;

const storeOrderSchema = collectionSchema(STORE_ORDERS, ruleFields({ ...orderEditRules, lines: (v) => readLines(v, []) }), {
  date: derivedDate(),
  dateStr: derivedText(20),
  count: derivedInt(0, MAX_COUNT),
  total: derivedInt(0, MAX_TOTAL),
  gp: derivedInt(-MAX_TOTAL, MAX_TOTAL),
  created: stamp(),
  updated: stamp(),
});

/** Registered products are custom (the built-in master is never stored). */
const storeProductSchema = collectionSchema(STORE_PRODUCTS, ruleFields(productRules), { custom: new Field(z.literal(true)), created: stamp() });

export const storeSchemas = [storeOrderSchema, storeProductSchema];
