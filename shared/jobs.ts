/** The job board's stages, in order: a card's `s` is an index into this list (docs/spec/kitting-api.md, jobs). */
export const JOB_STAGE_NAMES = ['受付', '入荷待ち', '入荷検品', 'キッティング', '動作検証', '梱包', '出荷', '完了'] as const;
export type JobStageName = (typeof JOB_STAGE_NAMES)[number];
/** The board's 8 stages are 0..7. */
export const JOB_STAGE_COUNT = JOB_STAGE_NAMES.length;
/** Most devices one job card carries. */
export const JOB_DEVICES_MAX = 5000;
