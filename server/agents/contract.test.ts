import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentsServer, type AgentsTestServer } from './harness.testkit';

/** The service's contract: docs/spec/agents-api.md. */
const CONTRACT = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../docs/spec/agents-api.md'), 'utf8');
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

interface ContractRoute {
  method: string;
  path: string;
}

/** Every method and path the contract names: its endpoint tables, the rate table's widget operations, the operator list. */
function contractRoutes(doc: string): ContractRoute[] {
  const out: ContractRoute[] = [];
  for (const line of doc.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 4 || !METHODS.includes(cells[1])) continue;
    for (const path of cells[2].split(',').map((p) => p.trim())) if (path.startsWith('/')) out.push({ method: cells[1], path });
  }
  // Section 8 names the widget operations the endpoint tables leave out: "Public POST chat, lead, tts, …", "Public GET avatar-video".
  for (const m of doc.matchAll(/^\| Public (GET|POST) ([a-z, -]+?) \|/gm)) {
    for (const op of m[2].split(',').map((s) => s.trim()).filter((s) => /^[a-z-]+$/.test(s))) out.push({ method: m[1], path: `/api/public/{publicId}/${op}` });
  }
  // Operator routes spelt out as METHOD /path in the prose (backups).
  const operator = doc.slice(doc.indexOf('### Operator-only'));
  for (const m of operator.matchAll(/\b(GET|POST)(?: and (GET|POST))? (\/api\/[a-z/{}-]+)/g)) {
    out.push({ method: m[1], path: m[3] });
    if (m[2]) out.push({ method: m[2], path: m[3] });
  }
  if (/\/r\/<code>/.test(doc)) out.push({ method: 'GET', path: '/r/{code}' });
  return out;
}

/** The operator list in prose ("users (get, patch, …)") as the routes that serve each item. */
const OPERATOR_ITEMS: Record<string, ContractRoute[]> = {
  revenue: [{ method: 'GET', path: '/api/admin/revenue' }],
  stats: [{ method: 'GET', path: '/api/admin/stats' }],
  activity: [{ method: 'GET', path: '/api/admin/activity' }],
  'llm-diagnostics': [{ method: 'GET', path: '/api/admin/llm-diagnostics' }],
  users: [
    { method: 'GET', path: '/api/admin/users' },
    { method: 'GET', path: '/api/admin/users/{id}' },
    { method: 'PATCH', path: '/api/admin/users/{id}' },
    { method: 'DELETE', path: '/api/admin/users/{id}' },
    { method: 'POST', path: '/api/admin/users/{id}/password' },
    { method: 'POST', path: '/api/admin/users/{id}/credits' },
    { method: 'POST', path: '/api/admin/users/{id}/role' },
    { method: 'POST', path: '/api/admin/users/{id}/subscription' },
    { method: 'POST', path: '/api/admin/users/{id}/edit-session' },
    { method: 'POST', path: '/api/admin/users/{id}/impersonate' },
  ],
  workspaces: [
    { method: 'GET', path: '/api/admin/workspaces' },
    { method: 'GET', path: '/api/admin/workspaces/{id}' },
  ],
  agents: [
    { method: 'GET', path: '/api/admin/agents' },
    { method: 'GET', path: '/api/admin/agents/{id}' },
  ],
  content: [
    { method: 'GET', path: '/api/admin/content' },
    { method: 'GET', path: '/api/admin/content/{page}' },
    { method: 'PUT', path: '/api/admin/content/{page}' },
    { method: 'POST', path: '/api/admin/content/{page}/reset' },
  ],
  settings: [
    { method: 'GET', path: '/api/admin/settings' },
    { method: 'PUT', path: '/api/admin/settings' },
  ],
  bundles: [
    { method: 'GET', path: '/api/admin/bundles' },
    { method: 'PUT', path: '/api/admin/bundles' },
  ],
  tickets: [
    { method: 'GET', path: '/api/admin/tickets' },
    { method: 'GET', path: '/api/admin/tickets/{id}' },
    { method: 'PATCH', path: '/api/admin/tickets/{id}' },
  ],
  affiliates: [
    { method: 'GET', path: '/api/admin/affiliates' },
    { method: 'GET', path: '/api/admin/affiliates/{id}/kyc-doc' },
    { method: 'POST', path: '/api/admin/affiliates/{id}/kyc' },
    { method: 'GET', path: '/api/admin/affiliates/payouts' },
    { method: 'POST', path: '/api/admin/affiliates/payouts/{pid}' },
  ],
};

/** The nouns of the operator sentence (the words before each "(…)" group or between commas). */
function operatorNouns(doc: string): string[] {
  const sentence = /Everything under \/api\/admin\/\* and \/api\/backups\/\*: (.+?); backups \(/.exec(doc)?.[1] ?? '';
  const bare = sentence.replace(/\([^)]*\)/g, '');
  return bare.split(/[;,]| and /).map((s) => s.trim()).filter(Boolean);
}

let t: AgentsTestServer;
beforeAll(async () => {
  t = await startAgentsServer();
});
afterAll(() => t.close());

/** A path with every {param} filled by a sample value. */
const concrete = (path: string) => path.replace(/\{[a-zA-Z]+\}/g, 'x1');

describe('the contract against the running service', () => {
  it('parses the route tables of the contract', () => {
    const routes = contractRoutes(CONTRACT);
    expect(routes.length).toBeGreaterThan(150);
    expect(routes).toContainEqual({ method: 'POST', path: '/api/auth/2fa/disable' });
    expect(routes).toContainEqual({ method: 'GET', path: '/api/widgets/{id}' });
    expect(routes).toContainEqual({ method: 'POST', path: '/api/public/{publicId}/tts' });
    expect(routes).toContainEqual({ method: 'GET', path: '/api/public/{publicId}/avatar-video' });
    expect(routes).toContainEqual({ method: 'GET', path: '/api/backups/download/{name}' });
    expect(routes).toContainEqual({ method: 'POST', path: '/api/backups' });
  });

  it('maps every item of the operator list to its routes', () => {
    const nouns = operatorNouns(CONTRACT);
    expect(nouns).toEqual(expect.arrayContaining(['revenue', 'users', 'affiliates']));
    expect(nouns.filter((n) => !OPERATOR_ITEMS[n])).toEqual([]);
  });

  it('registers every route the contract names (none answers Unknown API route)', async () => {
    const routes = [...contractRoutes(CONTRACT), ...Object.values(OPERATOR_ITEMS).flat()];
    const missing: string[] = [];
    for (const r of routes) {
      const body = ['GET', 'DELETE'].includes(r.method) ? undefined : '{}';
      const res = await fetch(t.base + concrete(r.path), { method: r.method, body, redirect: 'manual', headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.250.0.1' } });
      const text = await res.text();
      const unknown = res.status === 404 && text.includes(r.path.startsWith('/api/') ? 'Unknown API route' : 'Not found');
      if (unknown) missing.push(`${r.method} ${r.path}`);
    }
    expect(missing).toEqual([]);
  });
});
