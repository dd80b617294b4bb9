import { afterAll, afterEach } from 'vitest';
import { checkResponses } from '../http/route-core';

/**
 * Test setup (every test file): each body a service sends is parsed against the schema it publishes —
 * a success body against its route's response schema, a failure body against the service's error schema
 * (the OpenAPI `default` response) — and a body that does not fit fails the test that caused it.
 */
const violations: string[] = [];

checkResponses((route, body) => {
  const parsed = route.response?.safeParse(body);
  if (!parsed || parsed.success) return;
  const all = parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`);
  const issues = all.length > 5 ? `${all.slice(0, 5).join('; ')} (and ${all.length - 5} more)` : all.join('; ');
  violations.push(`${route.method.toUpperCase()} ${route.path}: ${issues}`);
});

/** The violations recorded since the last call (a test that provokes one on purpose takes it here). */
export function takeViolations(): string[] {
  return violations.splice(0);
}

function failOnViolations(): void {
  const found = takeViolations();
  if (found.length) throw new Error(`answer outside its published schema:\n${found.join('\n')}`);
}

afterEach(failOnViolations);
afterAll(failOnViolations);
