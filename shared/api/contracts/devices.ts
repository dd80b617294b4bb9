/** Wire contract of the device ledger. */
import { z } from 'zod';
import { createShape, num as numField, patchShape, text } from '../../fields';
import { DEFAULT_DEVICE_STATUS, DEFAULT_MDM } from '../../devices';
import { num, ok, okItem, optStr, str } from '../primitives';

export const Device = z.looseObject({
  imei: str,
  serial: optStr,
  asset: optStr,
  model: optStr,
  maker: optStr,
  os: optStr,
  cust: optStr,
  mdm: optStr,
  status: optStr,
  chip: optStr,
  bat: z.union([num, str]).optional(),
  loc: optStr,
  user: optStr,
  note: optStr,
});
export type Device = z.infer<typeof Device>;

/** A ledger row as a client writes it (keyed by its IMEI); chip, stamps, job and history are the server's. */
export const deviceFields = {
  imei: text(40).optional(),
  serial: text(40).optional(),
  asset: text(40).optional(),
  model: text(60).default('iPhone 16'),
  maker: text(120).optional(),
  // Not named in the contract's Device row, so "all other strings clip 120" applies.
  os: text(120).optional(),
  cust: text(60).default('社内検証機'),
  mdm: text(40).default(DEFAULT_MDM),
  status: text(20).default(DEFAULT_DEVICE_STATUS),
  // Battery is what was measured: no default (a device nobody checked has none).
  bat: numField().optional(),
  loc: text(120),
  user: text(120),
  note: text(300),
};

/** Bulk registration makes 1..1000 devices per call (qty is clamped; 0 or missing is refused). */
export const BULK_MAX = 1000;

/** Request schemas of the device ledger routes. */
export const deviceRequests = {
  /** POST /api/device: defaults applied, a blank imei counts as omitted. */
  create: createShape(deviceFields),
  /** POST /api/device/{imei}: only the fields sent; imei is immutable. */
  patch: patchShape(deviceFields),
  params: z.object({ imei: z.string().min(1).max(40) }),
  /** POST /api/devices/bulk: qty (1..BULK_MAX) and the fields every new device shares. */
  bulk: z.object({
    qty: z.unknown().optional(),
    model: deviceFields.model.zod.optional(),
    cust: deviceFields.cust.zod.optional(),
    mdm: deviceFields.mdm.zod.optional(),
    status: deviceFields.status.zod.optional(),
  }),
};
export type DeviceCreate = z.input<typeof deviceRequests.create>;
export type DevicePatch = z.input<typeof deviceRequests.patch>;
export type BulkRegister = z.input<typeof deviceRequests.bulk>;

/** Success bodies of the device ledger routes. */
export const deviceResponses = {
  list: ok({ devices: z.array(Device), count: num }),
  create: okItem('device', Device),
  bulk: ok({ created: z.array(Device), count: num }),
  update: okItem('device', Device),
  remove: ok({ imei: str }),
};
