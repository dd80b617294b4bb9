import { z } from 'zod';
import { collectionSchema, fixedKeys } from '../../http/collection-schema';
import { Field } from '../../../../shared/fields';
import { PROPOSALS_ID, REPLACE } from './replace.service';

/**
 * What a bench may push into the replacement proposals: the one record the proposal route writes, a map
 * of customer names (trimmed, non-empty, at most 120 characters) to the ISO time of the last proposal.
 */
const customer = z.string().min(1).max(120).refine((v) => v === v.trim(), 'customer names are stored trimmed');
const isoTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, 'must be an ISO time').refine((v) => !Number.isNaN(Date.parse(v)), 'must be a real time');

export const replaceSchema = fixedKeys(collectionSchema(REPLACE, { map: new Field(z.record(customer, isoTime)) }), [PROPOSALS_ID]);
