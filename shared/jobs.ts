import type { DeviceStatus } from './devices';

/** The job board's stages, in order: a card's `s` is an index into this list (docs/spec/kitting-api.md, jobs). */
export const JOB_STAGE_NAMES = ['受付', '入荷待ち', '入荷検品', 'キッティング', '動作検証', '梱包', '出荷', '完了'] as const;
export type JobStageName = (typeof JOB_STAGE_NAMES)[number];

/**
 * The one table from a card's stage to the ledger status of the devices on it: the work stages are
 * device statuses under the same name; before arrival a device waits, after shipping it is shipped.
 * A status in BOARD_KEEPS_STATUSES (消去済, 廃棄, 紛失) is never replaced by a board move.
 */
export const STAGE_DEVICE_STATUS = {
  受付: '入荷待ち',
  入荷待ち: '入荷待ち',
  入荷検品: '入荷検品',
  キッティング: 'キッティング',
  動作検証: '動作検証',
  梱包: '梱包',
  出荷: '出荷済',
  完了: '出荷済',
} as const satisfies Record<JobStageName, DeviceStatus>;

/** The ledger status of a device whose card is at stage index s. */
export function deviceStatusForStage(s: number): DeviceStatus {
  const name = JOB_STAGE_NAMES[Math.min(JOB_STAGE_NAMES.length - 1, Math.max(0, Math.trunc(s) || 0))];
  return STAGE_DEVICE_STATUS[name];
}
/** The board's 8 stages are 0..7. */
export const JOB_STAGE_COUNT = JOB_STAGE_NAMES.length;
/** Most devices one job card carries. */
export const JOB_DEVICES_MAX = 5000;
