import { z } from 'zod';
import { collectionSchema, fixedKeys, stamp, storedField } from '../../http/collection-schema';
import { Field } from '../../../../shared/fields';
import { deviceRequestFields } from '../../../../shared/api/contracts/workspace';
import { DEVICE_REQUESTS, ONBOARDING, PROJECTS_ID, PROJECTS_MAX, STATUSES, STEP_KEYS } from './onboarding.service';

/**
 * What a bench may push into the onboarding collections: the project board exactly as PUT
 * /api/onboarding/projects stores it, and device requests as the request routes write them.
 */
const upTo = (n: number) => z.string().max(n);
const project = z.strictObject({
  mdm: upTo(60),
  steps: z.strictObject(Object.fromEntries(STEP_KEYS.map((k) => [k, upTo(20).optional()]))),
  start: upTo(20),
});
const projects = z
  .record(upTo(120), project)
  .refine((m) => Object.keys(m).length <= PROJECTS_MAX, `at most ${PROJECTS_MAX} projects`);

const onboardingSchema = fixedKeys(
  collectionSchema(ONBOARDING, {
    sel: new Field(upTo(120)),
    tab: new Field(z.enum(['cust', 'emp'])),
    projects: new Field(projects),
  }),
  [PROJECTS_ID],
);

/** name and dept are stored trimmed and never empty. */
const trimmed = (v: string) => v.trim() !== '' && v === v.trim();

const deviceRequestSchema = collectionSchema(
  DEVICE_REQUESTS,
  {
    ...deviceRequestFields,
    name: storedField(deviceRequestFields.name, trimmed, 'must be a non-empty name as the route stores it'),
    dept: storedField(deviceRequestFields.dept, trimmed, 'must be a non-empty department as the route stores it'),
  },
  {
    status: new Field(z.enum(STATUSES)),
    lead: new Field(z.number().finite().nonnegative()),
    updated: stamp(),
  },
);

export const onboardingSchemas = [onboardingSchema, deviceRequestSchema];
