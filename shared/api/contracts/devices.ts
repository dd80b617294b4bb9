/** Wire contract of the device ledger. */
import { z } from 'zod';
import { crudResponses, num, ok, okItem, okList, optStr, str } from '../primitives';

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
/** Editable device fields (POST /api/device/{imei}); imei is immutable. */
export interface DevicePatch {
  status?: string;
  loc?: string;
  user?: string;
  bat?: number;
  note?: string;
  model?: string;
  cust?: string;
}
export interface DeviceCreate extends DevicePatch {
  imei?: string;
  mdm?: string;
}
export interface BulkRegister {
  qty: number;
  model?: string;
  cust?: string;
  mdm?: string;
  status?: string;
}

/** Success bodies of the device ledger routes. */
export const deviceResponses = {
  list: ok({ devices: z.array(Device), count: num }),
  create: okItem('device', Device),
  bulk: ok({ created: z.array(Device), count: num }),
  update: okItem('device', Device),
  remove: ok({ imei: str }),
};
