/** Wire contract of health, operations board, alerts and metrics (docs/spec/kitting-api.md section 4). */
import { z } from 'zod';
import { num, ok, okItem, okList, optStr, str } from '../primitives';
import { idParams } from './common';

export const Alert = z.looseObject({
  id: str,
  label: optStr,
  late: z.boolean().optional(),
  ack: z.boolean().optional(),
  acked: num.optional(),
  chip: optStr,
  chipLabel: optStr,
  what: optStr,
  detail: optStr,
  action: z.looseObject({ label: optStr, danger: z.boolean().optional(), toast: optStr }).optional(),
});
export type Alert = z.infer<typeof Alert>;

export const OpsRow = z.looseObject({
  id: str,
  time: optStr,
  chip: optStr,
  chipLabel: optStr,
  title: optStr,
  detail: optStr,
  status: optStr,
  statusColor: optStr,
});
export type OpsRow = z.infer<typeof OpsRow>;

const Figure = z.looseObject({ display: z.union([str, num]).optional(), unit: optStr, computed: z.boolean().optional(), reason: optStr });
export const MetricsOverview = z.looseObject({
  month: optStr,
  revenueForecast: Figure.optional(),
  mrr: Figure.optional(),
  pipeline: Figure.optional(),
  kittingMonth: Figure.optional(),
  grossMargin: Figure.optional(),
  recurringCustomers: Figure.optional(),
});
export type MetricsOverview = z.infer<typeof MetricsOverview>;

/** Success bodies of the health, operations board and alert routes. */
export const opsResponses = {
  ping: ok({ pong: num, mounted: z.literal(true) }),
  healthz: z.looseObject({ status: z.enum(['ok', 'unavailable']), database: z.looseObject({ kind: str, reachable: z.boolean() }) }),
  today: okList('ops', OpsRow),
  alerts: ok({ alerts: z.array(Alert), lateCount: num }),
  ack: okItem('alert', Alert),
};

/** Request schemas of the alert routes (POST /api/alert/{id}/ack). */
export const opsRequests = { ack: idParams };

/** Success bodies of the metrics routes (figures in yen; the revenue mix in 万円). */
export const metricsResponses = {
  overview: MetricsOverview.extend({ ok: z.literal(true), month: str }),
  mix: ok({ months: z.array(str), recurring: z.array(num), onetime: z.array(num) }),
};

/** The revenue mix covers 1..120 months (12 when omitted). */
export const MIX_MONTHS = { default: 12, max: 120 } as const;
/** Request schemas of the metrics routes (months is read by the server: 1..MIX_MONTHS.max whole months, else 400). */
export const metricsRequests = {
  mix: z.object({ months: z.unknown().optional() }),
};
export type RevenueMixQuery = z.input<typeof metricsRequests.mix>;
