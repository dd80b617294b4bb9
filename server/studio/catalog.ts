import { badRequest } from '../core/errors';
import type { Surface } from './billing';
import { SURFACE_PRICE } from './billing';

export type Setting =
  | { name: string; type: 'enum'; values: readonly string[]; default: string }
  | { name: string; type: 'int'; min: number; max: number; default: number };

export interface MediaRole {
  role: string;
  type: 'image' | 'video' | 'audio';
  required: boolean;
}

export interface Model {
  id: string;
  name: string;
  surface: Surface;
  settings: readonly Setting[];
  media: readonly MediaRole[];
}

const ASPECT = { name: 'aspect_ratio', type: 'enum', values: ['1:1', '16:9', '9:16', '4:3', '3:4'], default: '1:1' } as const;

/** The models the studio offers, with their declared settings and media roles. */
export const CATALOG: readonly Model[] = [
  { id: 'studio/image-v1', name: 'Image', surface: 'image', settings: [ASPECT, { name: 'seed', type: 'int', min: 0, max: 2 ** 31 - 1, default: 0 }], media: [] },
  {
    id: 'studio/image-reference-v1', name: 'Image from a reference', surface: 'image', settings: [ASPECT],
    media: [{ role: 'reference_image', type: 'image', required: true }],
  },
  {
    id: 'studio/frontier-video-v1', name: 'Frontier video', surface: 'video',
    settings: [
      { ...ASPECT, default: '16:9' },
      { name: 'duration', type: 'int', min: 2, max: 10, default: 5 },
      { name: 'resolution', type: 'enum', values: ['480p', '720p', '1080p'], default: '720p' },
    ],
    media: [{ role: 'start_image', type: 'image', required: false }],
  },
  { id: 'studio/audio-clip-v1', name: 'Audio clip', surface: 'audio', settings: [{ name: 'duration', type: 'int', min: 1, max: 30, default: 5 }], media: [] },
];

/** Ready-made prompts and settings ("effects" in the command-line client). */
export const PRESETS = [
  { id: 'product-shot', name: 'Product shot', model: 'studio/image-v1', prompt_suffix: 'studio lighting, white background, product photography', settings: { aspect_ratio: '1:1' } },
  { id: 'story-cover', name: 'Story cover', model: 'studio/image-v1', prompt_suffix: 'vertical poster, bold colors', settings: { aspect_ratio: '9:16' } },
  { id: 'slow-pan', name: 'Slow pan', model: 'studio/frontier-video-v1', prompt_suffix: 'slow cinematic pan', settings: { duration: 5, resolution: '720p' } },
  { id: 'jingle', name: 'Jingle', model: 'studio/audio-clip-v1', prompt_suffix: 'short upbeat jingle', settings: { duration: 5 } },
] as const;

export function modelById(id: string): Model | null {
  return CATALOG.find((m) => m.id === id) ?? null;
}

const priceOf = (model: Model): number => SURFACE_PRICE[model.surface];

/** The catalog as the API shows it. */
export function catalogView() {
  return CATALOG.map((m) => ({ id: m.id, name: m.name, surface: m.surface, price: priceOf(m), settings: m.settings, media: m.media }));
}

export interface GenerationRequest {
  model: string;
  prompt: string;
  settings?: Record<string, unknown>;
  media?: Record<string, unknown>;
}

/** Check a request against the model's declared settings and media roles (400 before anything is stored or charged). */
export function checkRequest(req: GenerationRequest): Model {
  const model = modelById(req.model);
  if (!model) throw badRequest('unknown model', { message: `Unknown model: ${req.model}. See GET /api/hf/catalog.` });
  for (const [k, v] of Object.entries(req.settings ?? {})) {
    const s = model.settings.find((x) => x.name === k);
    if (!s) throw badRequest('invalid settings', { message: `${model.id} has no setting "${k}"` });
    if (s.type === 'enum' && !s.values.includes(String(v))) throw badRequest('invalid settings', { message: `${k} must be one of ${s.values.join(', ')}` });
    if (s.type === 'int' && (typeof v !== 'number' || !Number.isInteger(v) || v < s.min || v > s.max)) {
      throw badRequest('invalid settings', { message: `${k} must be a whole number from ${s.min} to ${s.max}` });
    }
  }
  for (const [k, v] of Object.entries(req.media ?? {})) {
    if (!model.media.some((r) => r.role === k)) throw badRequest('invalid media', { message: `${model.id} has no media role "${k}"` });
    if (typeof v !== 'string' || !/^https?:\/\//.test(v) || v.length > 2000) throw badRequest('invalid media', { message: `${k} must be an http(s) url` });
  }
  for (const r of model.media) {
    if (r.required && !(req.media ?? {})[r.role]) throw badRequest('invalid media', { message: `${model.id} needs media "${r.role}"` });
  }
  return model;
}
