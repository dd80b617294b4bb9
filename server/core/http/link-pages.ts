import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Reply } from './route-core';

/**
 * The small pages the links in mails open (`/invite/<token>`, `/verify-email?token=`): server-rendered
 * HTML in Japanese and English, no inline script (one same-origin script, `/link-page.js`, calls the
 * service's JSON API), a strict Content-Security-Policy, no referrer (the token is in the address), not cached.
 */
export const LINK_PAGE_SCRIPT_PATH = '/link-page.js';
const SCRIPT_FILE = join(dirname(fileURLToPath(import.meta.url)), 'link-page.js');

/** A mailed token: base64url, bounded. Anything else is not a link this service sent. */
const LINK_TOKEN = /^[A-Za-z0-9_-]{16,200}$/;

const STYLE = `body{font-family:system-ui,"Hiragino Sans","Noto Sans JP",sans-serif;background:#f5f6f8;color:#1d2330;margin:0}
main{max-width:28rem;margin:3rem auto;background:#fff;border:1px solid #dde1e8;border-radius:8px;padding:1.5rem 1.75rem}
h1{font-size:1.25rem;margin:0 0 .25rem}h2{font-size:1rem;margin:1.25rem 0 .5rem}p.en,span.en{color:#5b6475;font-size:.85rem}
label{display:block;margin:.6rem 0 .2rem;font-size:.9rem}input{width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #c4cad6;border-radius:4px;font-size:1rem}
button{margin-top:.9rem;padding:.55rem 1.1rem;border:0;border-radius:4px;background:#2456c7;color:#fff;font-size:1rem;cursor:pointer}
button[disabled]{background:#8a9bc4}.status{margin-top:1rem;padding:.6rem .75rem;border-radius:4px}
.status.ok{background:#e6f4ea;color:#1e6b34}.status.err{background:#fdecea;color:#a3261b}[hidden]{display:none}`;
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

const LINK_PAGE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': `default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'sha256-${STYLE_HASH}'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'`,
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Japanese first, English under it. */
export type Bilingual = readonly [ja: string, en: string];
const both = ([ja, en]: Bilingual) => `${esc(ja)} <span class="en" lang="en">${esc(en)}</span>`;

function field(name: string, type: string, label: Bilingual, opts: { required?: boolean; autocomplete?: string; inputmode?: string } = {}): string {
  return `<label for="${name}">${both(label)}</label><input id="${name}" name="${name}" type="${type}"${opts.required ? ' required' : ''}${opts.autocomplete ? ` autocomplete="${opts.autocomplete}"` : ''}${opts.inputmode ? ` inputmode="${opts.inputmode}"` : ''} maxlength="200">`;
}

function shell(title: Bilingual, data: Record<string, string>, body: string): string {
  const attrs = Object.entries(data)
    .map(([k, v]) => ` data-${k}="${esc(v)}"`)
    .join('');
  return `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${esc(title[0])} / ${esc(title[1])}</title><style>${STYLE}</style>
<script src="${LINK_PAGE_SCRIPT_PATH}" defer></script></head>
<body><main id="page"${attrs}><h1>${esc(title[0])}</h1><p class="en" lang="en">${esc(title[1])}</p>
${body}
<noscript><p class="status err">${both(['このページの操作には JavaScript を有効にしてください。', 'Please enable JavaScript to continue.'])}</p></noscript>
<div id="status" class="status" role="status" hidden></div>
</main></body></html>`;
}

export interface InvitePageOptions {
  /** Which API the script speaks: the agent platform (cookie session, optional 2FA code) or the studio. */
  service: 'agents' | 'studio';
  token: string;
  /** Where "open the app" points after joining. */
  appPath?: string;
}

/** `GET /invite/<token>`: register with the invitation, or sign in and accept it. */
export function invitePage(o: InvitePageOptions): Reply {
  if (!LINK_TOKEN.test(o.token)) return notALink();
  const name = o.service === 'agents' ? field('reg-name', 'text', ['お名前（任意）', 'Name (optional)'], { autocomplete: 'name' }) : field('reg-workspace', 'text', ['ワークスペース名（任意）', 'Workspace name (optional)'], { autocomplete: 'organization' });
  const code = o.service === 'agents' ? field('login-code', 'text', ['2段階認証コード（設定している場合）', 'Two-factor code (if enabled)'], { autocomplete: 'one-time-code', inputmode: 'numeric' }) : '';
  const body = `<p>${both(['ワークスペースへの招待が届いています。招待されたメールアドレスで登録するか、既存のアカウントでログインして招待を承認してください。', 'You have been invited to a workspace. Register with the invited email address, or sign in with your existing account and accept the invitation.'])}</p>
<section id="signed-in" hidden><h2>${both(['ログイン中のアカウントで承認', 'Accept as the signed-in account'])}</h2><p id="signed-in-as"></p>
<button type="button" id="accept">${both(['招待を承認する', 'Accept invitation'])}</button></section>
<section id="register"><h2>${both(['新規登録して参加', 'Register and join'])}</h2><form id="register-form" novalidate>
${field('reg-email', 'email', ['メールアドレス（招待されたもの）', 'Email (the invited address)'], { required: true, autocomplete: 'email' })}
${field('reg-password', 'password', ['パスワード（8文字以上）', 'Password (8 characters or more)'], { required: true, autocomplete: 'new-password' })}
${name}
<button type="submit">${both(['登録して参加する', 'Register and join'])}</button></form></section>
<section id="login"><h2>${both(['既存のアカウントでログインして承認', 'Sign in and accept'])}</h2><form id="login-form" novalidate>
${field('login-email', 'email', ['メールアドレス', 'Email'], { required: true, autocomplete: 'email' })}
${field('login-password', 'password', ['パスワード', 'Password'], { required: true, autocomplete: 'current-password' })}
${code}
<button type="submit">${both(['ログインして招待を承認する', 'Sign in and accept invitation'])}</button></form></section>`;
  return new Reply(200, shell(['招待を承認する', 'Accept invitation'], { action: 'invite', service: o.service, token: o.token, app: o.appPath ?? '/' }, body), LINK_PAGE_HEADERS);
}

/** `GET /verify-email?token=`: confirms the address by POSTing the token (a button, so a mail scanner's GET confirms nothing). */
export function verifyPage(o: { token: string; appPath?: string }): Reply {
  if (!LINK_TOKEN.test(o.token)) return notALink();
  const body = `<p>${both(['下のボタンを押すと、このメールアドレスの確認が完了します。', 'Press the button below to confirm your email address.'])}</p>
<button type="button" id="verify">${both(['メールアドレスを確認する', 'Confirm email address'])}</button>`;
  return new Reply(200, shell(['メールアドレスの確認', 'Confirm your email address'], { action: 'verify', service: 'agents', token: o.token, app: o.appPath ?? '/' }, body), LINK_PAGE_HEADERS);
}

/** A malformed token: 404, same page frame, nothing to do. */
function notALink(): Reply {
  const body = `<p class="status err">${both(['このリンクは無効です。メールに記載されたリンクをもう一度開くか、送信者に再送を依頼してください。', 'This link is not valid. Open the link from the mail again, or ask the sender for a new one.'])}</p>`;
  return new Reply(404, shell(['無効なリンク', 'Invalid link'], { action: 'none' }, body), LINK_PAGE_HEADERS);
}

let script: Reply | null = null;
/** `GET /link-page.js`: the pages' only script. */
export function linkPageScript(): Reply {
  script ??= new Reply(200, readFileSync(SCRIPT_FILE, 'utf8'), {
    'Content-Type': 'application/javascript; charset=utf-8',
    'Cache-Control': 'public, max-age=300',
    'X-Content-Type-Options': 'nosniff',
  });
  return script;
}
