import { randomBytes } from 'node:crypto';
import { conflict, notFound } from '../core/errors';
import {
  SURFACE_PRICE, aiUnitsUsedUp, balanceOf, coveringPass, credit, debit, generationCharge, meter, notEnoughCredits, type Pass, type Surface,
} from './billing';
import { checkRequest, type GenerationRequest } from './catalog';
import type { Caller, StudioContext } from './context';
import { nowIso, type StudioDb } from './db';
import { PlatformError, type PlatformStatus } from './platform/platform';
import * as jobs from './repositories/jobs.repository';
import { insertChargedJobPg } from './repositories/job-charge.repository';
import type { JobRow, NewJob } from './schema';

export type { JobRow };

const TERMINAL = ['completed', 'failed', 'nsfw'] as const;
const isTerminal = (s: string): boolean => (TERMINAL as readonly string[]).includes(s);
const FAILED_TEXT = 'The generation failed.';
const NSFW_TEXT = "The model's safety filter rejected the generation.";
const CANCELLED_TEXT = 'The generation was cancelled.';

export interface JobResult {
  type: 'image' | 'video' | 'audio';
  url: string;
}

/** Jobs of the built-in local platform: it draws placeholders that do not depend on the prompt. */
const LOCAL_PLACEHOLDER = 'local://';

function jobView(row: JobRow) {
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
async function jobRow(db: StudioDb, ws: number, id: string): Promise<JobRow> {
  const row = await jobs.jobById(db, ws, id);
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

export async function quote(app: StudioContext, ws: number, req: GenerationRequest, db: StudioDb = app.db): Promise<Quote> {
  const model = checkRequest(req);
  const price = SURFACE_PRICE[model.surface];
  const pass = await coveringPass(db, ws, model.id, model.surface);
  const balance = await balanceOf(db, ws);
  const charge = pass ? 0 : price;
  const enforcement = app.config.creditEnforcement ? 'hard' : 'soft';
  return { model: model.id, surface: model.surface, price, charge, pass, balance, enforcement, allowed: enforcement === 'soft' || charge <= balance };
}

/**
 * Record the job row, charge it and meter it, atomically; the balance after the charge (undefined when a pass
 * covered it). SQLite: one BEGIN IMMEDIATE transaction (the allowance and pass reads under the write lock).
 * PostgreSQL: the reads (the allowance's fast path), then the writes as one statement (job-charge.repository)
 * in which the conditional metering is the authority on the allowance and every other write depends on it; the
 * charge stays one conditional UPDATE. Under hard enforcement the statement runs in a transaction, rolled back
 * when the balance does not cover the charge (so the unit it metered is not kept).
 */
async function recordJob(app: StudioContext, caller: Caller, model: { id: string; surface: Surface }, fields: Omit<NewJob, 'charged' | 'pass_id'> & { id: string; workspace_id: number; created_at: string }) {
  const overdraw = !app.config.creditEnforcement;
  if (app.database.dialect === 'postgres') {
    const { charge, pass, limit } = await generationCharge(app.db, caller.ws, model.id, model.surface);
    const write = (db: StudioDb) => insertChargedJobPg(db, { ...fields, charged: charge, pass_id: pass?.id ?? null }, charge > 0 ? { cost: charge, overdraw } : null, 'ai_units', limit);
    const written = charge > 0 && !overdraw
      ? await app.db.transaction().execute(async (trx) => {
          const w = await write(trx);
          if (w !== 'limit' && w.balance === null) throw notEnoughCredits();
          return w;
        })
      : await write(app.db);
    if (written === 'limit') throw aiUnitsUsedUp(limit!);
    return { charge, balance: written.balance };
  }
  return app.db.transaction().execute(async (trx) => {
    const { charge, pass, limit } = await generationCharge(trx, caller.ws, model.id, model.surface);
    await jobs.insertJob(trx, { ...fields, charged: charge, pass_id: pass?.id ?? null });
    // Hard enforcement: the charge is taken only while the balance covers it (one conditional UPDATE).
    const balance = charge > 0 ? await debit(trx, caller.ws, charge, 'charge', { overdraw, jobId: fields.id }) : undefined;
    if (balance === null) throw notEnoughCredits();
    await meter(trx, caller.ws, 'ai_units', limit);
    return { charge, balance };
  });
}

/** Submit: check, record the row, then charge (atomically), then hand it to the platform. */
export async function submitJob(app: StudioContext, caller: Caller, req: GenerationRequest) {
  const model = checkRequest(req);
  const settings = req.settings ?? {};
  const media = req.media ?? {};
  const id = `job_${randomBytes(10).toString('hex')}`;
  const now = nowIso();
  const { charge, balance } = await recordJob(app, caller, model, {
    id, workspace_id: caller.ws, model: model.id, surface: model.surface, prompt: req.prompt, status: 'queued',
    settings: JSON.stringify(settings), media: JSON.stringify(media), actor: caller.actor, created_at: now, updated_at: now,
  });

  let row: JobRow | undefined;
  // The balance this job's own charge left, unless a refund (failed submit) or no charge needs it read.
  let credits = balance;
  try {
    const sub = await app.platform.submit(model.id, { prompt: req.prompt, ...settings, ...media });
    row = await jobs.setSubmitted(app.db, caller.ws, id, sub, nowIso());
  } catch (err) {
    const msg = err instanceof PlatformError ? err.message : FAILED_TEXT;
    if (!(err instanceof PlatformError)) app.log(`platform submit ${id}: ${err instanceof Error ? err.message : String(err)}`);
    row = (await finish(app, caller.ws, id, 'failed', msg, [])) ?? undefined;
    credits = undefined;
  }
  row ??= await jobRow(app.db, caller.ws, id);
  return { job: jobView(row), credits: credits ?? (await balanceOf(app.db, caller.ws)), charged: charge };
}

/**
 * End a job once: only the first transition out of an unfinished state counts; failed and nsfw
 * refund exactly what was charged (nothing when a pass covered it). The ended row, or null when it had ended already.
 */
async function finish(app: StudioContext, ws: number, id: string, status: 'completed' | 'failed' | 'nsfw', error: string | null, results: JobResult[]): Promise<JobRow | null> {
  const end = { status, error, results: JSON.stringify(results) };
  // Completing refunds nothing: one conditional UPDATE, no transaction around it.
  if (status === 'completed') return (await jobs.finishJob(app.db, ws, id, end, nowIso())) ?? null;
  return app.db.transaction().execute(async (trx) => {
    const ended = await jobs.finishJob(trx, ws, id, end, nowIso());
    if (!ended) return null;
    if (Number(ended.charged) > 0) await credit(trx, ws, Number(ended.charged), 'refund', id);
    return ended;
  });
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
  const ws = Number(row.workspace_id);
  let ended: JobRow | null | undefined = null;
  if (s.status === 'completed') ended = await finish(app, ws, row.id, 'completed', null, resultsOf(s));
  else if (s.status === 'failed') ended = await finish(app, ws, row.id, 'failed', typeof s.error === 'string' && s.error ? s.error : FAILED_TEXT, []);
  else if (s.status === 'nsfw') ended = await finish(app, ws, row.id, 'nsfw', NSFW_TEXT, []);
  else if (s.status === 'in_progress' && row.status !== 'in_progress') ended = await jobs.setInProgress(app.db, ws, row.id, nowIso());
  // The row the write answered; read again only when another request moved the job first (or nothing changed).
  return ended ?? jobRow(app.db, ws, row.id);
}

export async function pollJob(app: StudioContext, ws: number, id: string): Promise<JobView> {
  return jobView(await advance(app, await jobRow(app.db, ws, id)));
}

export async function cancelJob(app: StudioContext, ws: number, id: string): Promise<JobView> {
  const row = await jobRow(app.db, ws, id);
  if (isTerminal(row.status)) throw conflict('job already finished', { status: row.status });
  if (row.cancel_url) {
    try {
      await app.platform.cancel(row.cancel_url);
    } catch (err) {
      app.log(`platform cancel ${row.id}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  await finish(app, ws, row.id, 'failed', CANCELLED_TEXT, []);
  return jobView(await jobRow(app.db, ws, id));
}

/** A job whose submit never reached the platform (the process stopped in between) is failed and refunded after this long. */
const ORPHAN_MS = 10 * 60_000;
const NOT_SUBMITTED_TEXT = 'The generation could not be submitted.';

/** The cron route: every unfinished job asked once. */
export async function pollUnfinished(app: StudioContext): Promise<{ checked: number; finished: number }> {
  const rows = await jobs.unfinishedJobs(app.db);
  let finished = 0;
  for (const row of rows) {
    if (!row.status_url && Date.now() - Date.parse(row.created_at) > ORPHAN_MS) {
      if ((await finish(app, Number(row.workspace_id), row.id, 'failed', NOT_SUBMITTED_TEXT, [])) !== null) finished++;
      continue;
    }
    if (isTerminal((await advance(app, row)).status)) finished++;
  }
  return { checked: rows.length, finished };
}

export const jobNotCompleted = (status: string) =>
  conflict('job not completed', { status, message: 'Only a completed job can be saved.' });
