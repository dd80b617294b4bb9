import { z } from 'zod';
import type { AgentRow } from '../agents/agents.service';

/** Appearance and behaviour of the embeddable chat widget. */
export const widgetFields = {
  title: z.string().trim().max(80),
  subtitle: z.string().trim().max(160),
  welcome_message: z.string().max(2_000),
  placeholder: z.string().max(120),
  primary_color: z.string().max(32),
  accent_color: z.string().max(32),
  text_color: z.string().max(32),
  background_color: z.string().max(32),
  position: z.enum(['right', 'left']),
  theme: z.enum(['light', 'dark', 'auto']),
  launcher_icon: z.string().max(2_000),
  avatar_url: z.string().max(2_000),
  bubble_text: z.string().max(120),
  suggestions: z.array(z.string().trim().min(1).max(120)).max(6),
  show_branding: z.boolean(),
  collect_leads: z.boolean(),
  lead_fields: z.array(z.enum(['name', 'email', 'phone', 'company'])).max(4),
  auto_open: z.boolean(),
  auto_open_delay: z.number().int().min(0).max(60_000),
  language: z.string().max(10),
  sound: z.boolean(),
};
export const widgetSchema = z.object(widgetFields).partial();
export type WidgetConfig = z.infer<z.ZodObject<typeof widgetFields>>;

export function widgetConfig(a: AgentRow): WidgetConfig {
  let saved: Partial<WidgetConfig> = {};
  try {
    saved = widgetSchema.catch({}).parse(JSON.parse(a.widget));
  } catch {
    saved = {};
  }
  return {
    title: a.name, subtitle: '', welcome_message: a.welcome_message, placeholder: 'Type your message…',
    primary_color: a.color || '#4f46e5', accent_color: '#111827', text_color: '#ffffff', background_color: '#ffffff',
    position: 'right', theme: 'light', launcher_icon: '', avatar_url: a.avatar_url, bubble_text: '', suggestions: [],
    show_branding: true, collect_leads: false, lead_fields: ['name', 'email'], auto_open: false, auto_open_delay: 0, language: 'auto', sound: false,
    ...saved,
  };
}
