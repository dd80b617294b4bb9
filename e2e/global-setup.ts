/**
 * Vitest global setup: make sure the browser tests have a Chromium before any test file starts,
 * installing one where the machine has none (see ./browser.testkit.ts). The path (or the reason there is
 * none) is handed to the test workers through the environment they inherit.
 */
import { ensureChromium, OVERRIDE_VARS, UNAVAILABLE_VAR } from './browser.testkit';

export default function setup(): void {
  try {
    const found = ensureChromium();
    process.env[OVERRIDE_VARS[0]] = found.path;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    process.env[UNAVAILABLE_VAR] = message;
    console.error(`\n${message}\n`);
  }
}
