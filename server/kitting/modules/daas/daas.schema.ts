import { collectionSchema, derivedDate, derivedInt, fixedKeys, ruleFields, stamp } from '../../http/collection-schema';
import { Field } from '../../../../shared/fields';
import { z } from 'zod';
import { DAAS_QUOTES, DAAS_SENDS, DAAS_STATE, daasSendRules, daasTermRules, readDaasStatus, readExpires, readUnitPrice, SIM_ID, STATUS_LABELS } from './daas.service';

/**
 * What a bench may push into the DaaS collections: each field a daas route accepts, read by that route's
 * own rule, and the figures, stamps and labels the server derives, within their bounds.
 */
const labels = Object.values(STATUS_LABELS) as [string, ...string[]];

const daasQuoteSchema = collectionSchema(
  DAAS_QUOTES,
  ruleFields({ ...daasTermRules, price: readUnitPrice, expires: (v) => readExpires(v, ''), status: readDaasStatus }),
  {
    // monthly fee per device and its mrr are computed from the terms (at most 10,000,000 yen a device, 100,000 devices)
    monthly: derivedInt(0, 10_000_000),
    mrr: derivedInt(0, 1_000_000_000_000),
    ts: stamp(),
    updated: stamp(),
    statusTs: stamp(),
    statusLabel: new Field(z.enum(labels)),
    contracted: derivedDate(),
  },
);

/** The simulator prefs are one record (sim) holding the same terms as a quote. */
const daasStateSchema = fixedKeys(collectionSchema(DAAS_STATE, ruleFields(daasTermRules), { updated: stamp() }), [SIM_ID]);

const daasSendSchema = collectionSchema(DAAS_SENDS, ruleFields(daasSendRules), { ts: stamp() });

export const daasSchemas = [daasQuoteSchema, daasStateSchema, daasSendSchema];
