/**
 * The trust layer's rule shared by every service: each route declares who may call it, from its service's
 * table of access values (kitting: server/core/security/policy.ts; agents: server/agents/roles.ts; studio:
 * server/studio/route.ts), and the service checks that declaration before the route reads its input.
 * A route whose declaration is missing or names no entry of the table stops the start.
 */
export interface DeclaredRoute {
  method: string;
  path: string;
  auth?: unknown;
}

export function assertDeclaredAccess(routes: readonly DeclaredRoute[], values: readonly string[]): void {
  for (const r of routes) {
    if (typeof r.auth !== 'string' || !values.includes(r.auth)) {
      throw new Error(`route without a valid auth declaration: ${r.method.toUpperCase()} ${r.path}`);
    }
  }
}
