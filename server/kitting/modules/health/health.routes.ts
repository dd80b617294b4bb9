import { defineRoute, Reply } from '../../http/define-route';
import { notFound, unavailable } from '../../../core/errors';
import type { Doc } from '../../store/types';
import { z } from 'zod';
import { Field } from '../../../../shared/fields';
import { collectionSchema, derivedText, stamp } from '../../http/collection-schema';
import { opsRequests, opsResponses } from '../../../../shared/api/contracts/ops';

const flag = () => new Field(z.boolean());
/**
 * Alerts and the operations board are the server's (seeded, acknowledged by POST /api/alert/{id}/ack): no
 * route takes their fields from a client, so a pushed record may carry only what the server itself writes.
 */
export const alertSchema = collectionSchema('alerts', {}, {
  label: derivedText(60),
  late: flag(),
  ack: flag(),
  acked: stamp(),
  chip: derivedText(40),
  chipLabel: derivedText(40),
  what: derivedText(200),
  detail: derivedText(300),
  action: new Field(z.object({ label: z.string().max(60), danger: z.boolean().optional(), toast: z.string().max(300).optional() })),
});
export const opsBoardSchema = collectionSchema('ops', {}, {
  time: derivedText(20),
  chip: derivedText(40),
  chipLabel: derivedText(40),
  title: derivedText(200),
  detail: derivedText(300),
  status: derivedText(40),
  statusColor: derivedText(40),
});

const lateCount = (alerts: Doc[]) => alerts.filter((a) => a.late === true && a.ack !== true).length;

export const healthRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/ping',
    response: opsResponses.ping,
    auth: 'public',
    workspace: false,
    handler: () => ({ pong: Date.now(), mounted: true }),
  }),
  defineRoute({
    method: 'get',
    path: '/healthz',
    produces: 'application/json',
    response: opsResponses.healthz,
    auth: 'public',
    workspace: false,
    // A load balancer takes a central process out of rotation while its database is unreachable (503).
    handler: async ({ app }) => {
      const database = await app.store.health();
      const status = database.reachable ? 'ok' : 'unavailable';
      return new Reply(database.reachable ? 200 : 503, JSON.stringify({ status, database }), { 'Content-Type': 'application/json; charset=utf-8' });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/ops/today',
    response: opsResponses.today,
    auth: 'ops:view',
    handler: async ({ app, ws }) => ({ ops: await app.store.list(ws, 'ops') }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/alerts',
    response: opsResponses.alerts,
    auth: 'ops:view',
    handler: async ({ app, ws }) => {
      const alerts = await app.store.list(ws, 'alerts');
      return { alerts, lateCount: lateCount(alerts) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/alert/:id/ack',
    response: opsResponses.ack,
    auth: 'ops:edit',
    params: opsRequests.ack,
    handler: async ({ app, ws, params }) => {
      const alert = await app.store.transact(ws, async (tx) => {
        const current = await tx.get('alerts', params.id);
        if (!current) throw notFound('alert not found');
        return tx.patch('alerts', params.id, { ack: true, acked: Date.now() });
      });
      return { alert };
    },
  }),
];
