/**
 * External sign-in providers (Google OAuth, SMS). Configured from the environment only;
 * every call to the outside world goes through this module.
 */
export interface GoogleConfig {
  clientId: string;
  clientSecret: string;
  redirectUri: string | null;
}
export interface SmsConfig {
  accountSid: string;
  authToken: string;
  from: string;
}

export function googleConfig(env: NodeJS.ProcessEnv = process.env): GoogleConfig | null {
  if (!env.GOOGLE_CLIENT_ID || !env.GOOGLE_CLIENT_SECRET) return null;
  return { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET, redirectUri: env.GOOGLE_REDIRECT_URI || null };
}

export function smsConfig(env: NodeJS.ProcessEnv = process.env): SmsConfig | null {
  if (!env.TWILIO_ACCOUNT_SID || !env.TWILIO_AUTH_TOKEN || !env.TWILIO_FROM) return null;
  return { accountSid: env.TWILIO_ACCOUNT_SID, authToken: env.TWILIO_AUTH_TOKEN, from: env.TWILIO_FROM };
}

export function googleAuthorizeUrl(cfg: GoogleConfig, redirectUri: string, state: string): string {
  const q = new URLSearchParams({
    client_id: cfg.clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid email profile',
    state,
    prompt: 'select_account',
  });
  return `https://accounts.google.com/o/oauth2/v2/auth?${q}`;
}

/** Exchange the code and read the verified email; null on any failure. */
export async function googleEmail(cfg: GoogleConfig, redirectUri: string, code: string): Promise<{ email: string; name: string } | null> {
  const tokenRes = await fetch('https://oauth2.googleapis.com/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ code, client_id: cfg.clientId, client_secret: cfg.clientSecret, redirect_uri: redirectUri, grant_type: 'authorization_code' }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!tokenRes.ok) return null;
  const tok = (await tokenRes.json()) as { access_token?: string };
  if (!tok.access_token) return null;
  const info = await fetch('https://openidconnect.googleapis.com/v1/userinfo', {
    headers: { authorization: `Bearer ${tok.access_token}` },
    signal: AbortSignal.timeout(10_000),
  });
  if (!info.ok) return null;
  const u = (await info.json()) as { email?: string; email_verified?: boolean; name?: string };
  if (!u.email || u.email_verified !== true) return null;
  return { email: u.email.toLowerCase(), name: u.name ?? '' };
}

export async function sendSms(cfg: SmsConfig, to: string, body: string): Promise<boolean> {
  const res = await fetch(`https://api.twilio.com/2010-04-01/Accounts/${encodeURIComponent(cfg.accountSid)}/Messages.json`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${cfg.accountSid}:${cfg.authToken}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ To: to, From: cfg.from, Body: body }),
    signal: AbortSignal.timeout(10_000),
  });
  return res.ok;
}
