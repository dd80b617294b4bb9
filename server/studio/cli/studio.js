#!/usr/bin/env node
// Publishing Studio command-line client: one file, Node 20 or newer, no dependencies.
// Download it from <studio>/cli/studio.js and run `node studio.js help`.
// Modules are loaded with import() so the file runs as CommonJS or as an ES module alike.
let createInterface, mkdirSync, readFileSync, writeFileSync, homedir, dirname, join;
async function loadModules() {
  ({ createInterface } = await import('node:readline/promises'));
  ({ mkdirSync, readFileSync, writeFileSync } = await import('node:fs'));
  ({ homedir } = await import('node:os'));
  ({ dirname, join } = await import('node:path'));
}

const HELP = `Usage: node studio.js <command> [options]

Commands:
  login [--url URL] [--key sk_studio_...] [--email E --password P]
                       save the studio address and credentials in ~/.studio/config.json
  models               list the models and their prices
  effects              list the presets
  balance              plan, allowances, usage and credit balance
  generate --model M --prompt "..." [--duration S] [--resolution R] [--aspect A]
           [--out FILE] [--yes] [--no-wait]
                       quote the price, ask, submit, wait for the result, save it to FILE
  jobs <id> [--wait] [--out FILE]
                       show a job; --wait follows it until it ends

Credentials: STUDIO_API_KEY (and STUDIO_URL) in the environment, else the config file.`;

const TERMINAL = ['completed', 'failed', 'nsfw'];

function parseArgs(argv) {
  const flags = {};
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (eq > 0) flags[a.slice(2, eq)] = a.slice(eq + 1);
      else if (i + 1 < argv.length && !argv[i + 1].startsWith('--') && !['yes', 'wait', 'no-wait', 'help'].includes(a.slice(2))) flags[a.slice(2)] = argv[++i];
      else flags[a.slice(2)] = true;
    } else rest.push(a);
  }
  return { flags, rest };
}

const configFile = () => join(process.env.STUDIO_CONFIG_DIR || join(homedir(), '.studio'), 'config.json');

function readConfig() {
  try {
    return JSON.parse(readFileSync(configFile(), 'utf8'));
  } catch {
    return {};
  }
}

function settings() {
  const cfg = readConfig();
  const url = (process.env.STUDIO_URL || cfg.url || 'http://127.0.0.1:4310').replace(/\/+$/, '');
  const key = process.env.STUDIO_API_KEY || cfg.key || '';
  return { url, key };
}

class CliError extends Error {}

async function api(method, path, body, auth = settings()) {
  if (!auth.key) throw new CliError('Not logged in: set STUDIO_API_KEY or run `node studio.js login`.');
  let res;
  try {
    res = await fetch(`${auth.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${auth.key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (err) {
    throw new CliError(`Cannot reach the studio at ${auth.url}: ${err.message}`);
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new CliError(`${res.status} ${data.error || res.statusText}${data.message ? ` (${data.message})` : ''}`);
  return data;
}

async function ask(question) {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

async function login(flags) {
  const cfg = readConfig();
  const url = String(flags.url || process.env.STUDIO_URL || cfg.url || 'http://127.0.0.1:4310').replace(/\/+$/, '');
  let key = typeof flags.key === 'string' ? flags.key : '';
  if (!key) {
    const email = typeof flags.email === 'string' ? flags.email : await ask('Email: ');
    const password = typeof flags.password === 'string' ? flags.password : await ask('Password: ');
    const res = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new CliError(`Login refused: ${data.error || res.status}`);
    key = data.token;
  }
  const me = await api('GET', '/api/me', undefined, { url, key });
  mkdirSync(dirname(configFile()), { recursive: true });
  writeFileSync(configFile(), JSON.stringify({ url, key }, null, 2), { mode: 0o600 });
  console.log(`Logged in to ${url}: workspace ${me.workspace.name} (#${me.workspace.id}), role ${me.role}. Saved in ${configFile()}`);
}

function progress(job, started) {
  if (!process.stderr.isTTY) return;
  const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
  const s = Math.floor((Date.now() - started) / 1000);
  process.stderr.write(`\r${frames[Math.floor(Date.now() / 120) % frames.length]} ${job.status.padEnd(12)} ${s}s `);
}

async function waitFor(id) {
  const started = Date.now();
  let lastStatus = '';
  for (;;) {
    const { job } = await api('GET', `/api/hf/jobs/${encodeURIComponent(id)}`);
    if (!process.stderr.isTTY && job.status !== lastStatus) process.stderr.write(`${job.status}\n`);
    lastStatus = job.status;
    progress(job, started);
    if (TERMINAL.includes(job.status)) {
      if (process.stderr.isTTY) process.stderr.write('\n');
      return job;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function download(job, out) {
  const first = job.results[0];
  if (!first) throw new CliError('The job has no result to save.');
  const res = await fetch(first.url);
  if (!res.ok) throw new CliError(`Download failed: ${res.status}${res.status === 410 ? ' (the result link has expired)' : ''}`);
  const data = Buffer.from(await res.arrayBuffer());
  mkdirSync(dirname(out) || '.', { recursive: true });
  writeFileSync(out, data);
  console.log(`Saved ${data.length} bytes to ${out}`);
}

function report(job) {
  console.log(`Job ${job.id}: ${job.status}`);
  if (job.error) console.log(`Error: ${job.error}`);
  for (const r of job.results) console.log(`${r.type}: ${r.url}`);
}

async function generate(flags) {
  if (typeof flags.model !== 'string' || typeof flags.prompt !== 'string') throw new CliError('generate needs --model and --prompt (see `node studio.js models`).');
  const s = {};
  if (flags.duration !== undefined) s.duration = Number(flags.duration);
  if (flags.resolution !== undefined) s.resolution = String(flags.resolution);
  if (flags.aspect !== undefined) s.aspect_ratio = String(flags.aspect);
  const body = { model: flags.model, prompt: flags.prompt, settings: s };
  const { quote } = await api('POST', '/api/hf/quote', body);
  const priceText = quote.charge === 0 && quote.pass ? `free with a pass (normally ${quote.price} credits)` : `${quote.charge} credits`;
  console.log(`${quote.model}: ${priceText}; balance ${quote.balance} credits`);
  if (!quote.allowed) throw new CliError('Not enough credits for this generation.');
  if (!flags.yes) {
    if (!process.stdin.isTTY) throw new CliError('Refusing to spend credits without confirmation: add --yes.');
    const answer = await ask('Generate? [y/N] ');
    if (!/^y(es)?$/i.test(answer)) {
      console.log('Cancelled; nothing was charged.');
      return;
    }
  }
  const { job, credits } = await api('POST', '/api/hf/generate', body);
  console.log(`Submitted job ${job.id}; balance now ${credits} credits`);
  if (flags['no-wait']) return;
  const done = await waitFor(job.id);
  report(done);
  if (done.status !== 'completed') process.exitCode = 1;
  else if (typeof flags.out === 'string') await download(done, flags.out);
}

async function jobs(rest, flags) {
  const id = rest[0];
  if (!id) throw new CliError('jobs needs a job id.');
  const job = flags.wait ? await waitFor(id) : (await api('GET', `/api/hf/jobs/${encodeURIComponent(id)}`)).job;
  report(job);
  if (typeof flags.out === 'string') {
    if (job.status !== 'completed') throw new CliError(`The job is ${job.status}; nothing to save.`);
    await download(job, flags.out);
  }
}

async function main() {
  await loadModules();
  const [command, ...args] = process.argv.slice(2);
  const { flags, rest } = parseArgs(args);
  switch (command) {
    case 'login':
      return login(flags);
    case 'models': {
      const { models } = await api('GET', '/api/hf/models');
      for (const m of models) console.log(`${m.id.padEnd(28)} ${m.surface.padEnd(6)} ${String(m.price).padStart(4)} credits  ${m.name}`);
      return;
    }
    case 'effects': {
      const { presets } = await api('GET', '/api/hf/presets');
      for (const p of presets) console.log(`${p.id.padEnd(14)} ${p.model.padEnd(28)} ${p.name}`);
      return;
    }
    case 'balance': {
      const b = await api('GET', '/api/billing');
      console.log(`Plan ${b.plan}; credits ${b.credits.balance} (${b.enforcement})`);
      for (const k of ['posts', 'ai_units', 'accounts']) console.log(`  ${k.padEnd(9)} ${b.usage[k]} / ${b.allowances[k] ?? 'unlimited'}`);
      for (const p of b.passes) console.log(`  pass ${p.scope || p.surface}${p.expires_at ? ` until ${p.expires_at}` : ''}`);
      return;
    }
    case 'generate':
      return generate(flags);
    case 'jobs':
      return jobs(rest, flags);
    case undefined:
    case 'help':
    case '--help':
      console.log(HELP);
      return;
    default:
      throw new CliError(`Unknown command ${command}.\n\n${HELP}`);
  }
}

main().catch((err) => {
  console.error(err instanceof CliError ? err.message : err && err.stack ? err.stack : String(err));
  process.exitCode = 1;
});
