import type { StudioDb } from '../db';
import type { JobRow, MediaRow, NewJob } from '../schema';

/** Generation jobs and the media saved from them, always within their workspace. */

const UNFINISHED_OUT = ['completed', 'failed', 'nsfw'] as const;

export async function insertJob(db: StudioDb, job: NewJob): Promise<void> {
  await db.insertInto('jobs').values(job).execute();
}

export async function jobById(db: StudioDb, ws: number, id: string): Promise<JobRow | undefined> {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).where('workspace_id', '=', ws).executeTakeFirst();
}

/** The platform accepted the job: its request id and urls (only while it is still queued). */
export async function setSubmitted(db: StudioDb, ws: number, id: string, sub: { request_id: string; status_url: string; cancel_url: string }, now: string): Promise<void> {
  await db
    .updateTable('jobs').set({ request_id: sub.request_id, status_url: sub.status_url, cancel_url: sub.cancel_url, updated_at: now })
    .where('id', '=', id).where('workspace_id', '=', ws).where('status', '=', 'queued')
    .execute();
}

export async function setInProgress(db: StudioDb, ws: number, id: string, now: string): Promise<void> {
  await db.updateTable('jobs').set({ status: 'in_progress', updated_at: now }).where('id', '=', id).where('workspace_id', '=', ws).where('status', '=', 'queued').execute();
}

/** The first transition out of an unfinished state; returns what was charged, or null when the job had already ended. */
export async function finishJob(
  db: StudioDb, ws: number, id: string, end: { status: string; error: string | null; results: string }, now: string,
): Promise<{ charged: number } | null> {
  const r = await db
    .updateTable('jobs').set({ status: end.status, error: end.error, results: end.results, updated_at: now })
    .where('id', '=', id).where('workspace_id', '=', ws).where('status', 'not in', UNFINISHED_OUT)
    .returning('charged')
    .executeTakeFirst();
  return r ? { charged: Number(r.charged) } : null;
}

/** Every workspace's unfinished jobs, oldest first (the cron poll). */
export async function unfinishedJobs(db: StudioDb): Promise<JobRow[]> {
  return db.selectFrom('jobs').selectAll().where('status', 'not in', UNFINISHED_OUT).orderBy('created_at').execute();
}

const MEDIA_COLUMNS = ['id', 'key', 'type', 'job_id', 'created_at'] as const;

export async function listMedia(db: StudioDb, ws: number): Promise<MediaRow[]> {
  return db.selectFrom('media').select(MEDIA_COLUMNS).where('workspace_id', '=', ws).orderBy('created_at', 'desc').orderBy('id').execute();
}

export async function mediaOfJob(db: StudioDb, ws: number, jobId: string): Promise<MediaRow[]> {
  return db.selectFrom('media').select(MEDIA_COLUMNS).where('job_id', '=', jobId).where('workspace_id', '=', ws).orderBy('key').execute();
}

/** Saved media rows; a result saved already (same job and key) is kept as it was. */
export async function insertMedia(db: StudioDb, ws: number, rows: MediaRow[]): Promise<void> {
  if (!rows.length) return;
  await db.insertInto('media').values(rows.map((m) => ({ ...m, workspace_id: ws }))).onConflict((oc) => oc.doNothing()).execute();
}
