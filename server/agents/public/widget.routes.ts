import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { Reply } from '../../core/http/route-core';

/** The embeddable widget script (plain browser JavaScript, served as written). */
const WIDGET_FILE = join(dirname(fileURLToPath(import.meta.url)), 'widget.js');

/** GET /widget.js: the script the embed snippet of /api/widget points to; cached briefly, revalidated by ETag. */
export function widgetScriptRoutes(_ctx: AgentsContext): AgentRoute[] {
  const code = readFileSync(WIDGET_FILE, 'utf8');
  const etag = `"${createHash('sha256').update(code).digest('base64url').slice(0, 27)}"`;
  const headers = {
    'Content-Type': 'application/javascript; charset=utf-8',
    'Cache-Control': 'public, max-age=300',
    'Access-Control-Allow-Origin': '*',
    'Cross-Origin-Resource-Policy': 'cross-origin',
    'X-Content-Type-Options': 'nosniff',
    ETag: etag,
  };
  return [
    route({
      method: 'get',
      path: '/widget.js', produces: 'application/javascript',
      auth: 'public',
      handler: ({ req }) => (req.headers['if-none-match'] === etag ? new Reply(304, '', headers) : new Reply(200, code, headers)),
    }),
  ];
}
