import { clip } from '../../../../shared/fields';

export const ONBOARDING = 'onboarding';
export const PROJECTS_ID = 'projects';
export const DEVICE_REQUESTS = 'deviceRequests';

export const STEP_KEYS = ['kickoff', 'abm', 'apns', 'design', 'pilot', 'rollout', 'handover'] as const;
export const PROJECTS_MAX = 500;
export const STATUSES = ['pending', 'approved', 'rejected'] as const;

export interface Project {
  mdm: string;
  steps: Partial<Record<(typeof STEP_KEYS)[number], string>>;
  start: string;
}

/** The project board as PUT /api/onboarding/projects stores it: at most 500 projects, known steps only, texts clipped. */
export function readProjects(raw: Record<string, unknown>): Record<string, Project> {
  const out: Record<string, Project> = {};
  for (const [name, value] of Object.entries(raw).slice(0, PROJECTS_MAX)) {
    const v = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
    const stepsIn = v.steps && typeof v.steps === 'object' && !Array.isArray(v.steps) ? (v.steps as Record<string, unknown>) : {};
    const steps: Project['steps'] = {};
    for (const k of STEP_KEYS) if (typeof stepsIn[k] === 'string') steps[k] = clip(stepsIn[k] as string, 20);
    out[clip(name, 120)] = { mdm: typeof v.mdm === 'string' ? clip(v.mdm, 60) : '', steps, start: typeof v.start === 'string' ? clip(v.start, 20) : '' };
  }
  return out;
}

/** Lead time in days when none is given: 0.8 to 2.4 with one decimal. */
export const randomLead = () => Math.round((0.8 + Math.random() * 1.6) * 10) / 10;

