import { CATALOG, PRESETS, catalogView, type GenerationRequest } from './catalog';
import { cancelJob, pollJob, pollUnfinished, quote, submitJob } from './jobs';
import { listMedia, saveJob } from './library';
import { studioRoute } from './route';
import { studioResponses } from '../../shared/api/contracts/studio';
import { generationBody, jobParam } from '../../shared/api/contracts/studio-requests';

export const jobRoutes = [
  studioRoute({ method: 'get', path: '/api/hf/catalog', auth: 'AUTH', response: studioResponses.catalog, handler: () => ({ models: catalogView() }) }),
  studioRoute({
    method: 'get', path: '/api/hf/models', auth: 'AUTH', response: studioResponses.models,
    handler: () => ({ models: CATALOG.map((m) => ({ id: m.id, name: m.name, surface: m.surface, price: catalogView().find((c) => c.id === m.id)?.price })) }),
  }),
  studioRoute({ method: 'get', path: '/api/hf/presets', auth: 'AUTH', response: studioResponses.presets, handler: () => ({ presets: PRESETS }) }),
  studioRoute<unknown, unknown, GenerationRequest>({
    method: 'post', path: '/api/hf/quote', auth: 'AUTH', response: studioResponses.quote, body: generationBody,
    handler: async ({ caller, body, app }) => ({ quote: await quote(app, caller.ws, body) }),
  }),
  studioRoute<unknown, unknown, GenerationRequest>({
    method: 'post', path: '/api/hf/generate', auth: 'WRITE', response: studioResponses.generate, body: generationBody,
    handler: ({ caller, body, app }) => submitJob(app, caller, body),
  }),
  studioRoute<{ id: string }>({
    method: 'get', path: '/api/hf/jobs/:id', auth: 'AUTH', response: studioResponses.job, params: jobParam,
    handler: async ({ caller, params, app }) => ({ job: await pollJob(app, caller.ws, params.id) }),
  }),
  studioRoute<{ id: string }>({
    method: 'post', path: '/api/hf/jobs/:id/save', auth: 'WRITE', response: studioResponses.save, params: jobParam,
    handler: async ({ caller, params, app }) => {
      const saved = await saveJob(app, caller.ws, params.id);
      return { media: saved[0], items: saved };
    },
  }),
  studioRoute<{ id: string }>({
    method: 'post', path: '/api/hf/jobs/:id/cancel', auth: 'WRITE', response: studioResponses.job, params: jobParam,
    handler: async ({ caller, params, app }) => ({ job: await cancelJob(app, caller.ws, params.id) }),
  }),
  studioRoute({ method: 'get', path: '/api/media', auth: 'AUTH', response: studioResponses.media, handler: async ({ caller, app }) => ({ media: await listMedia(app, caller.ws) }) }),
  studioRoute({ method: 'post', path: '/api/cron/poll', auth: 'CRON', response: studioResponses.poll, handler: ({ app }) => pollUnfinished(app) }),
];
