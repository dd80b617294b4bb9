import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StudioContext } from '../server/studio/context';
import { signedFileUrl } from '../server/studio/media';
import { makePng } from '../server/studio/platform/media-gen';
import type { Platform } from '../server/studio/platform/platform';

/** The benchmarks' generation platform: every job is finished at its first status call, with a file already on disk. */
export function instantPlatform(getCtx: () => StudioContext, dir: string): Platform {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'bench.png'), makePng('bench', 256, 256));
  let n = 0;
  return {
    name: 'local',
    submit: async () => {
      const id = `bench-${++n}`;
      return { request_id: id, status: 'queued', status_url: `instant://${id}`, cancel_url: '' };
    },
    status: async () => ({ status: 'completed', images: [{ url: signedFileUrl(getCtx(), 'platform', 'bench.png') }] }),
    cancel: async () => {},
  };
}
