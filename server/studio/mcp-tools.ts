import { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DomainError, badRequest } from '../core/errors';
import { billingState } from './billing';
import { CATALOG, PRESETS, catalogView, modelById } from './catalog';
import type { Caller, StudioContext } from './context';
import { pollJob, quote, submitJob } from './jobs';
import { generationBody } from '../../shared/api/contracts/studio-requests';
import { READ_ONLY } from './route';

type Json = Record<string, unknown>;
export interface McpTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Json; required?: string[] };
  write: boolean;
  run: (app: StudioContext, caller: Caller, args: Json) => Promise<Json> | Json;
}

const str = (description: string) => ({ type: 'string', description });
const GEN_PROPS = {
  prompt: str('What to generate'),
  settings: { type: 'object', description: "Model settings as declared in list_models (e.g. aspect_ratio)" },
  media: { type: 'object', description: 'Input media by role: {role: url}' },
};

function generation(surface: 'image' | 'video', fallbackModel: string) {
  const args = generationBody.omit({ model: true }).extend({
    model: z.string().optional(),
    aspect_ratio: z.string().optional(),
    duration: z.number().int().optional(),
    resolution: z.string().optional(),
  });
  return async (app: StudioContext, caller: Caller, raw: Json) => {
    const a = parseArgs(args, raw);
    const model = modelById(a.model ?? fallbackModel);
    if (!model) throw badRequest('unknown model', { message: `Unknown model: ${a.model}` });
    if (model.surface !== surface) throw badRequest('unknown model', { message: `${model.id} does not generate ${surface}` });
    const settings: Json = { ...(a.settings ?? {}) };
    if (a.aspect_ratio !== undefined) settings.aspect_ratio = a.aspect_ratio;
    if (a.duration !== undefined) settings.duration = a.duration;
    if (a.resolution !== undefined) settings.resolution = a.resolution;
    return submitJob(app, caller, { model: model.id, prompt: a.prompt, settings, media: a.media });
  };
}

function parseArgs<T>(schema: z.ZodType<T>, raw: unknown): T {
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  const i = r.error.issues[0];
  throw badRequest('invalid request', { message: i ? `${i.path.join('.') || 'arguments'}: ${i.message}` : 'invalid arguments' });
}

/** The studio's tools; each calls the same service as its route, with the key's workspace. */
export const MCP_TOOLS: McpTool[] = [
  {
    name: 'list_models', description: 'Models with their surface, price in credits, settings and media roles.',
    inputSchema: { type: 'object', properties: {} }, write: false,
    run: () => ({ models: catalogView() }),
  },
  {
    name: 'list_effects', description: 'Ready-made presets (prompt additions and settings for a model).',
    inputSchema: { type: 'object', properties: {} }, write: false,
    run: () => ({ effects: PRESETS }),
  },
  {
    name: 'quote_generation', description: 'Price of a generation before submitting it, and whether it would be allowed.',
    inputSchema: { type: 'object', properties: { model: str(`One of ${CATALOG.map((m) => m.id).join(', ')}`), ...GEN_PROPS }, required: ['model', 'prompt'] },
    write: false,
    run: async (app, caller, raw) => ({ quote: await quote(app, caller.ws, parseArgs(generationBody, raw)) }),
  },
  {
    name: 'generate_image', description: 'Submit an image generation; returns the queued job. Poll it with job_status.',
    inputSchema: {
      type: 'object',
      properties: { model: str('Image model (default studio/image-v1)'), aspect_ratio: str('1:1, 16:9, 9:16, 4:3 or 3:4'), ...GEN_PROPS },
      required: ['prompt'],
    },
    write: true, run: generation('image', 'studio/image-v1'),
  },
  {
    name: 'generate_video', description: 'Submit a video generation; returns the queued job. Poll it with job_status.',
    inputSchema: {
      type: 'object',
      properties: {
        model: str('Video model (default studio/frontier-video-v1)'), duration: { type: 'integer', description: 'Seconds' },
        resolution: str('480p, 720p or 1080p'), aspect_ratio: str('16:9, 9:16, 1:1, 4:3 or 3:4'), ...GEN_PROPS,
      },
      required: ['prompt'],
    },
    write: true, run: generation('video', 'studio/frontier-video-v1'),
  },
  {
    name: 'job_status', description: 'A generation job: status (queued, in_progress, completed, failed, nsfw), results and error.',
    inputSchema: { type: 'object', properties: { job_id: str('The job id from generate_image or generate_video') }, required: ['job_id'] },
    write: false,
    run: async (app, caller, raw) => ({ job: await pollJob(app, caller.ws, parseArgs(z.object({ job_id: z.string().min(1).max(80) }), raw).job_id) }),
  },
  {
    name: 'account_balance', description: 'Plan, allowances and usage this month, credit balance and active passes.',
    inputSchema: { type: 'object', properties: {} }, write: false,
    run: (app, caller) => billingState(app, caller.ws),
  },
];

/** Run a tool; a refusal is a result with isError and the route's own message. */
export async function runTool(app: StudioContext, caller: Caller, tool: McpTool, args: Json): Promise<CallToolResult> {
  try {
    if (tool.write && caller.role !== 'owner' && caller.role !== 'editor') throw READ_ONLY();
    const out = await tool.run(app, caller, args);
    return { content: [{ type: 'text', text: JSON.stringify(out) }], structuredContent: out, isError: false };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const message = typeof err.extra.message === 'string' ? `${err.error}: ${err.extra.message}` : err.error;
    return { content: [{ type: 'text', text: message }], structuredContent: { ok: false, error: err.error, ...err.extra }, isError: true };
  }
}
