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

/** The platform accepted the job: its request id and urls (only while it is still queued); the row, or undefined when it was not queued. */
export async function setSubmitted(db: StudioDb, ws: number, id: string, sub: { request_id: string; status_url: string; cancel_url: string }, now: string): Promise<JobRow | undefined> {
  return db
    .updateTable('jobs').set({ request_id: sub.request_id, status_url: sub.status_url, cancel_url: sub.cancel_url, updated_at: now })
    .where('id', '=', id).where('workspace_id', '=', ws).where('status', '=', 'queued')
    .returningAll()
    .executeTakeFirst();
}

/** The row once in progress, or undefined when it was not queued. */
export async function setInProgress(db: StudioDb, ws: number, id: string, now: string): Promise<JobRow | undefined> {
  return db
    .updateTable('jobs').set({ status: 'in_progress', updated_at: now })
    .where('id', '=', id).where('workspace_id', '=', ws).where('status', '=', 'queued')
    .returningAll()
    .executeTakeFirst();
}

/** The first transition out of an unfinished state; returns the ended row (with what was charged), or undefined when the job had already ended. */
export async function finishJob(
  db: StudioDb, ws: number, id: string, end: { status: string; error: string | null; results: string }, now: string,
): Promise<JobRow | undefined> {
  return db
    .updateTable('jobs').set({ status: end.status, error: end.error, results: end.results, updated_at: now })
    .where('id', '=', id).where('workspace_id', '=', ws).where('status', 'not in', UNFINISHED_OUT)
    .returningAll()
    .executeTakeFirst();
}

/** Every workspace's unfinished jobs, oldest first (the cron poll). */
export async function unfinishedJobs(db: StudioDb): Promise<JobRow[]> {
  return db.selectFrom('jobs').selectAll().where('status', 'not in', UNFINISHED_OUT).orderBy('created_at').execute();
}

const MEDIA_COLUMNS = ['id', 'key', 'type', 'job_id', 'created_at'] as const;

export async function listMedia(db: StudioDb, ws: number): Promise<MediaRow[]> {
  return db.selectFrom('media').select(MEDIA_COLUMNS).where('workspace_id', '=', ws).orderBy('created_at', 'desc').orderBy('id').execute();
}

/** A job's state and results with the media saved from it already (by key), in one statement; undefined when the workspace has no such job. */
export async function jobWithMedia(db: StudioDb, ws: number, jobId: string): Promise<{ status: string; results: string; media: MediaRow[] } | undefined> {
  const rows = await db
    .selectFrom('jobs as j')
    .leftJoin('media as m', (j) => j.onRef('m.job_id', '=', 'j.id').onRef('m.workspace_id', '=', 'j.workspace_id'))
    .select(['j.status', 'j.results', 'm.id as media_id', 'm.key', 'm.type', 'm.created_at'])
    .where('j.id', '=', jobId).where('j.workspace_id', '=', ws)
    .orderBy('m.key')
    .execute();
  if (!rows.length) return undefined;
  const media = rows
    .filter((r) => r.media_id !== null)
    .map((r) => ({ id: r.media_id!, key: r.key!, type: r.type!, job_id: jobId, created_at: r.created_at! }));
  return { status: rows[0].status, results: rows[0].results, media };
}

/** Saved media rows; a result saved already (same job and key) is kept as it was. */
export async function insertMedia(db: StudioDb, ws: number, rows: MediaRow[]): Promise<void> {
  if (!rows.length) return;
  await db.insertInto('media').values(rows.map((m) => ({ ...m, workspace_id: ws }))).onConflict((oc) => oc.doNothing()).execute();
}
