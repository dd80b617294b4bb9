/**
 * Settings of the kitting app that the core's Config does not name (the core knows no domain).
 * Read from the environment when asked, so one place defines each variable.
 */

/**
 * KITTING_PUBLIC_URL: central's public address (https://kitting.example.jp), the base of links printed
 * for people outside the workspace (certificate verification pages). Benches learn it from central at
 * enrolment. Null when unset or not an http(s) URL; a trailing slash is dropped.
 */
export function kittingPublicUrl(env: NodeJS.ProcessEnv = process.env): string | null {
  const raw = (env.KITTING_PUBLIC_URL ?? '').trim();
  if (!raw) return null;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return null;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
  return `${u.origin}${u.pathname}`.replace(/\/+$/, '');
}
