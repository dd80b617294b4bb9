import { z } from 'zod';
import type { AgentRow } from '../agents/agents.service';
import { widgetFields, widgetSchema } from '../../../shared/api/contracts/agents-values';

export type WidgetConfig = z.infer<z.ZodObject<typeof widgetFields>>;

export function widgetConfig(a: AgentRow): WidgetConfig {
  let saved: Partial<WidgetConfig> = {};
  try {
    saved = widgetSchema.catch({}).parse(JSON.parse(a.widget));
  } catch {
    saved = {};
  }
  return {
    title: a.name, subtitle: '', welcome_message: a.welcome_message, placeholder: '',
    primary_color: a.color || '#4f46e5', accent_color: '#111827', text_color: '#ffffff', background_color: '#ffffff',
    position: 'right', theme: 'light', launcher_icon: '', avatar_url: a.avatar_url, bubble_text: '', suggestions: [],
    show_branding: true, collect_leads: false, lead_fields: ['name', 'email'], auto_open: false, auto_open_delay: 0, language: 'auto', sound: false,
    ...saved,
  };
}
