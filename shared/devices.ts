/**
 * The device ledger's vocabulary, used by the server (defaults, chip colours) and the renderer (choices):
 * every status in the order the screens offer it, with the chip colour the ledger shows for it.
 */
const DEVICE_STATUS_CHIPS = {
  入荷待ち: 'c-gray',
  // A device in hand, registered at receiving (入荷セッション).
  入荷済: 'c-blue',
  // While its job card is on the board a device carries the card's stage (shared/jobs.ts STAGE_DEVICE_STATUS).
  入荷検品: 'c-cyan',
  キッティング: 'c-cyan',
  動作検証: 'c-cyan',
  梱包: 'c-blue',
  保管中: 'c-blue',
  消去済: 'c-green',
  出荷済: 'c-green',
  修理中: 'c-orange',
  返却済: 'c-gray',
  故障: 'c-red',
  紛失: 'c-red',
  廃棄: 'c-red',
} as const satisfies Record<string, string>;

export type DeviceStatus = keyof typeof DEVICE_STATUS_CHIPS;
export const DEVICE_STATUSES = Object.keys(DEVICE_STATUS_CHIPS) as DeviceStatus[];

/** Chip colours of statuses older ledgers carry (作業中 before the statuses followed the board's stages). */
const LEGACY_STATUS_CHIPS: Record<string, string> = { 作業中: 'c-cyan' };

/**
 * Statuses that record what happened to the device itself (its data was erased, it was destroyed or
 * lost): moving its job card on the board never replaces them.
 */
export const BOARD_KEEPS_STATUSES: readonly string[] = ['消去済', '廃棄', '紛失'];

/** The status a device gets when none is given. */
export const DEFAULT_DEVICE_STATUS = '入荷待ち';

/** The status the bench's scan screens choose for a device the technician has in hand (the API default stays 入荷待ち). */
export const RECEIVED_STATUS = '入荷済';

/** The platform label a device gets when none is given. */
export const DEFAULT_MDM = 'Microsoft Intune';

/** The chip colour of a status (gray for one outside the list). */
export function deviceChip(status: string): string {
  return (DEVICE_STATUS_CHIPS as Record<string, string>)[status] ?? LEGACY_STATUS_CHIPS[status] ?? 'c-gray';
}
