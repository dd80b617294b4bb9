import { randomBytes } from 'node:crypto';
import { conflict, notFound } from '../core/errors';
import {
  SURFACE_PRICE, balanceOf, checkAllowance, coveringPass, ledgerEntry, meter, notEnoughCredits, type Pass, type Surface,
} from './billing';
import { checkRequest, type GenerationRequest } from './catalog';
import type { Caller, StudioContext } from './context';
import { nowIso, stmt } from './db';
import { PlatformError, type PlatformStatus } from './platform/platform';

const TERMINAL = ['completed', 'failed', 'nsfw'] as const;
const isTerminal = (s: string): boolean => (TERMINAL as readonly string[]).includes(s);
const FAILED_TEXT = 'The generation failed.';
const NSFW_TEXT = "The model's safety filter rejected the generation.";
const CANCELLED_TEXT = 'The generation was cancelled.';

export interface JobRow {
  id: string;
  workspace_id: number;
  request_id: string | null;
  model: string;
  surface: Surface;
  prompt: string;
  status: string;
  error: string | null;
  settings: string;
  media: string;
  results: string;
  status_url: string | null;
  cancel_url: string | null;
  charged: number;
  pass_id: string | null;
  actor: string;
  created_at: string;
  updated_at: string;
}

export interface JobResult {
  type: 'image' | 'video' | 'audio';
  url: string;
}

/** Jobs of the built-in local platform: it draws placeholders that do not depend on the prompt. */
const LOCAL_PLACEHOLDER = 'local://';

export function jobView(row: JobRow) {
  return {
    id: row.id,
    engine: row.status_url?.startsWith(LOCAL_PLACEHOLDER) ? ('local-placeholder' as const) : ('platform' as const),
    request_id: row.request_id,
    model: row.model,
    surface: row.surface,
    prompt: row.prompt,
    status: row.status,
    error: row.error,
    settings: JSON.parse(row.settings) as Record<string, unknown>,
    media: JSON.parse(row.media) as Record<string, unknown>,
    results: JSON.parse(row.results) as JobResult[],
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
export type JobView = ReturnType<typeof jobView>;

/** A job of this workspace; another workspace's job is simply not found. */
export function jobRow(app: StudioContext, ws: number, id: string): JobRow {
  const row = stmt(app.db, 'SELECT * FROM jobs WHERE id = ? AND workspace_id = ?').get(id, ws) as JobRow | undefined;
  if (!row) throw notFound('job not found');
  return row;
}

export interface Quote {
  model: string;
  surface: Surface;
  price: number;
  /** What submitting would charge now (0 when a pass covers it). */
  charge: number;
  pass: Pass | null;
  balance: number;
  enforcement: 'soft' | 'hard';
  /** False when enforcement is hard, no pass applies and the balance is short. */
  allowed: boolean;
}

export function quote(app: StudioContext, ws: number, req: GenerationRequest): Quote {
  const model = checkRequest(req);
  const price = SURFACE_PRICE[model.surface];
  const pass = coveringPass(app.db, ws, model.id, model.surface);
  const balance = balanceOf(app.db, ws);
  const charge = pass ? 0 : price;
  const enforcement = app.config.creditEnforcement ? 'hard' : 'soft';
  return { model: model.id, surface: model.surface, price, charge, pass, balance, enforcement, allowed: enforcement === 'soft' || charge <= balance };
}

/** Submit: check, record the row, then charge (one transaction), then hand it to the platform. */
export async function submitJob(app: StudioContext, caller: Caller, req: GenerationRequest) {
  const model = checkRequest(req);
  const settings = req.settings ?? {};
  const media = req.media ?? {};
  const id = `job_${randomBytes(10).toString('hex')}`;
  const now = nowIso();
  const { charged } = app.db.transaction(() => {
    checkAllowance(app.db, caller.ws, 'ai_units');
    const q = quote(app, caller.ws, req);
    if (!q.allowed) throw notEnoughCredits();
    stmt(app.db, 
        `INSERT INTO jobs (id, workspace_id, model, surface, prompt, status, settings, media, charged, pass_id, actor, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(id, caller.ws, model.id, model.surface, req.prompt, JSON.stringify(settings), JSON.stringify(media), q.charge, q.pass?.id ?? null, caller.actor, now, now);
    if (q.charge > 0) ledgerEntry(app.db, caller.ws, -q.charge, 'charge', id);
    meter(app.db, caller.ws, 'ai_units');
    return { charged: q.charge };
  })();

  try {
    const sub = await app.platform.submit(model.id, { prompt: req.prompt, ...settings, ...media });
    stmt(app.db, "UPDATE jobs SET request_id = ?, status_url = ?, cancel_url = ?, updated_at = ? WHERE id = ? AND status = 'queued'")
      .run(sub.request_id, sub.status_url, sub.cancel_url, nowIso(), id);
  } catch (err) {
    const msg = err instanceof PlatformError ? err.message : FAILED_TEXT;
    if (!(err instanceof PlatformError)) app.log(`platform submit ${id}: ${err instanceof Error ? err.message : String(err)}`);
    finish(app, id, 'failed', msg, []);
  }
  const row = jobRow(app, caller.ws, id);
  return { job: jobView(row), credits: balanceOf(app.db, caller.ws), charged };
}

/**
 * End a job once: only the first transition out of an unfinished state counts; failed and nsfw
 * refund exactly what was charged (nothing when a pass covered it).
 */
function finish(app: StudioContext, id: string, status: 'completed' | 'failed' | 'nsfw', error: string | null, results: JobResult[]): boolean {
  return app.db.transaction(() => {
    const r = stmt(app.db, `UPDATE jobs SET status = ?, error = ?, results = ?, updated_at = ? WHERE id = ? AND status NOT IN ('completed', 'failed', 'nsfw')`)
      .run(status, error, JSON.stringify(results), nowIso(), id);
    if (r.changes === 0) return false;
    if (status !== 'completed') {
      const row = stmt(app.db, 'SELECT workspace_id, charged FROM jobs WHERE id = ?').get(id) as { workspace_id: number; charged: number };
      if (row.charged > 0) ledgerEntry(app.db, row.workspace_id, row.charged, 'refund', id);
    }
    return true;
  })();
}

function resultsOf(s: PlatformStatus): JobResult[] {
  const out: JobResult[] = [];
  for (const i of s.images ?? []) if (i && typeof i.url === 'string') out.push({ type: 'image', url: i.url });
  if (s.video && typeof s.video.url === 'string') out.push({ type: 'video', url: s.video.url });
  if (s.audio && typeof s.audio.url === 'string') out.push({ type: 'audio', url: s.audio.url });
  return out;
}

/** Ask the platform once about an unfinished job and record what it says. A finished job is left alone. */
async function advance(app: StudioContext, row: JobRow): Promise<JobRow> {
  if (isTerminal(row.status) || !row.status_url) return row;
  let s: PlatformStatus;
  try {
    s = await app.platform.status(row.status_url);
  } catch (err) {
    app.log(`platform status ${row.id}: ${err instanceof Error ? err.message : String(err)}`);
    return row;
  }
  if (s.status === 'completed') finish(app, row.id, 'completed', null, resultsOf(s));
  else if (s.status === 'failed') finish(app, row.id, 'failed', typeof s.error === 'string' && s.error ? s.error : FAILED_TEXT, []);
  else if (s.status === 'nsfw') finish(app, row.id, 'nsfw', NSFW_TEXT, []);
  else if (s.status === 'in_progress' && row.status !== 'in_progress') {
    stmt(app.db, "UPDATE jobs SET status = 'in_progress', updated_at = ? WHERE id = ? AND status = 'queued'").run(nowIso(), row.id);
  }
  return stmt(app.db, 'SELECT * FROM jobs WHERE id = ?').get(row.id) as JobRow;
}

export async function pollJob(app: StudioContext, ws: number, id: string): Promise<JobView> {
  return jobView(await advance(app, jobRow(app, ws, id)));
}

export async function cancelJob(app: StudioContext, ws: number, id: string): Promise<JobView> {
  const row = jobRow(app, ws, id);
  if (isTerminal(row.status)) throw conflict('job already finished', { status: row.status });
  if (row.cancel_url) {
    try {
      await app.platform.cancel(row.cancel_url);
    } catch (err) {
      app.log(`platform cancel ${row.id}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  finish(app, row.id, 'failed', CANCELLED_TEXT, []);
  return jobView(jobRow(app, ws, id));
}

/** A job whose submit never reached the platform (the process stopped in between) is failed and refunded after this long. */
const ORPHAN_MS = 10 * 60_000;
const NOT_SUBMITTED_TEXT = 'The generation could not be submitted.';

/** The cron route: every unfinished job asked once. */
export async function pollUnfinished(app: StudioContext): Promise<{ checked: number; finished: number }> {
  const rows = stmt(app.db, "SELECT * FROM jobs WHERE status NOT IN ('completed', 'failed', 'nsfw') ORDER BY created_at").all() as JobRow[];
  let finished = 0;
  for (const row of rows) {
    if (!row.status_url && Date.now() - Date.parse(row.created_at) > ORPHAN_MS) {
      if (finish(app, row.id, 'failed', NOT_SUBMITTED_TEXT, [])) finished++;
      continue;
    }
    if (isTerminal((await advance(app, row)).status)) finished++;
  }
  return { checked: rows.length, finished };
}

export const jobNotCompleted = (status: string) =>
  conflict('job not completed', { status, message: 'Only a completed job can be saved.' });
