/**
 * Which Chromium the browser tests drive, and how a machine without one gets one.
 *
 * Order of search: an explicit path (KITTING_CHROMIUM, CHROME_PATH, CHROMIUM_PATH), Debian's and other
 * system installs, then the Chromium that Playwright installs in its own cache. Where none exists, the
 * test run provisions one before the browser tests start: Debian's `chromium` package through apt-get
 * (as root, or through passwordless sudo), otherwise Playwright's own download. The decisions are pure
 * functions of a probe so they are tested without touching the machine.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

/** Variables that name a browser explicitly, first wins. */
export const OVERRIDE_VARS = ['KITTING_CHROMIUM', 'CHROME_PATH', 'CHROMIUM_PATH'] as const;
/** Set by the test run when no browser could be found or provisioned: the reason, for the browser tests. */
export const UNAVAILABLE_VAR = 'KITTING_CHROMIUM_UNAVAILABLE';

const SYSTEM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium', '/usr/bin/google-chrome-stable', '/usr/bin/google-chrome'];
const PATH_NAMES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'];

export interface BrowserProbe {
  env: Record<string, string | undefined>;
  /** True when the file exists and can be executed. */
  isExecutable(path: string): boolean;
  /** Where Playwright keeps (or would keep) its Chromium. */
  playwrightPath(): string | undefined;
  isRoot: boolean;
  /** sudo that needs no password. */
  hasSudo(): boolean;
  /** apt-get is on this machine. */
  hasApt(): boolean;
}

export type Found = { path: string; source: 'override' | 'system' | 'playwright' };
export type Search = { ok: true; found: Found } | { ok: false; reason: string };

export function findChromium(probe: BrowserProbe): Search {
  for (const name of OVERRIDE_VARS) {
    const value = probe.env[name]?.trim();
    if (!value) continue;
    if (probe.isExecutable(value)) return { ok: true, found: { path: value, source: 'override' } };
    return { ok: false, reason: `${name}=${value} is not an executable browser` };
  }
  const onPath = (probe.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .flatMap((dir) => PATH_NAMES.map((n) => join(dir, n)));
  for (const path of [...SYSTEM_PATHS, ...onPath]) {
    if (probe.isExecutable(path)) return { ok: true, found: { path, source: 'system' } };
  }
  const pw = probe.playwrightPath();
  if (pw && probe.isExecutable(pw)) return { ok: true, found: { path: pw, source: 'playwright' } };
  return { ok: false, reason: 'no Chromium or Chrome found' };
}

export interface Step {
  label: string;
  /** Commands run in order; the step fails at the first that fails. */
  commands: string[][];
}

/** How to get a browser onto this machine, best first. */
export function provisionPlan(probe: BrowserProbe, playwrightCli: string, node = process.execPath): Step[] {
  const steps: Step[] = [];
  if (probe.hasApt() && (probe.isRoot || probe.hasSudo())) {
    const as = probe.isRoot ? [] : ['sudo', '-n'];
    steps.push({
      label: `Debian's chromium package (apt-get${probe.isRoot ? '' : ' through sudo'})`,
      commands: [
        [...as, 'apt-get', 'update', '-qq'],
        [...as, 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '-qq', 'chromium'],
      ],
    });
  }
  steps.push({ label: "Playwright's Chromium download", commands: [[node, playwrightCli, 'install', '--no-shell', 'chromium']] });
  return steps;
}

export type Runner = (cmd: string[]) => { ok: boolean; output: string };

/** Finds a browser, provisioning one where none exists; throws with the whole story when that is impossible. */
export function ensureChromium(probe: BrowserProbe = realProbe(), run: Runner = runCommand, log: (line: string) => void = console.log): Found {
  const first = findChromium(probe);
  if (first.ok) return first.found;
  if (OVERRIDE_VARS.some((n) => probe.env[n]?.trim())) throw new Error(noBrowserMessage([first.reason]));
  const tried: string[] = [first.reason];
  for (const step of provisionPlan(probe, playwrightCli())) {
    log(`No browser for the browser tests: installing ${step.label} …`);
    const failed = step.commands.map((cmd) => ({ cmd, r: run(cmd) })).find(({ r }) => !r.ok);
    if (failed) {
      tried.push(`${step.label} failed: \`${failed.cmd.join(' ')}\`: ${lastLines(failed.r.output)}`);
      continue;
    }
    const again = findChromium(probe);
    if (again.ok) {
      log(`Browser tests use ${again.found.path}`);
      return again.found;
    }
    tried.push(`${step.label} finished but no browser appeared`);
  }
  if (!probe.hasApt()) tried.push('apt-get is not available');
  else if (!probe.isRoot && !probe.hasSudo()) tried.push("not root and no passwordless sudo, so Debian's package could not be installed");
  throw new Error(noBrowserMessage(tried));
}

function noBrowserMessage(tried: string[]): string {
  return [
    'The browser tests need Chromium and none could be found or installed.',
    ...tried.map((t) => `  - ${t}`),
    'Install one (Debian/Ubuntu: `sudo apt-get install -y chromium`, or `npx playwright-core install chromium`)',
    `or point ${OVERRIDE_VARS[0]} at a Chromium or Chrome executable, then run \`npm test\` again.`,
  ].join('\n');
}

function lastLines(s: string): string {
  const lines = s.trim().split('\n').map((l) => l.trim()).filter(Boolean);
  const errors = lines.filter((l) => /error|unable|denied|failed/i.test(l));
  return (errors.length ? errors : lines).slice(-3).join(' / ') || 'no output';
}

function playwrightCli(): string {
  return resolve(import.meta.dirname, '..', 'node_modules', 'playwright-core', 'cli.js');
}

function runCommand(cmd: string[]): { ok: boolean; output: string } {
  const [file, ...args] = cmd;
  if (!file) return { ok: false, output: 'empty command' };
  const r = spawnSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}`;
  return { ok: r.status === 0, output };
}

function commandWorks(cmd: string[]): boolean {
  try {
    const [file, ...args] = cmd;
    if (!file) return false;
    execFileSync(file, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The probe of this machine. */
function realProbe(env: Record<string, string | undefined> = process.env): BrowserProbe {
  const isExecutable = (path: string) => {
    try {
      accessSync(path, constants.X_OK);
      return statSync(path).isFile();
    } catch {
      return false;
    }
  };
  return {
    env,
    isExecutable,
    playwrightPath: () => {
      try {
        return chromium.executablePath();
      } catch {
        return undefined;
      }
    },
    isRoot: typeof process.getuid === 'function' && process.getuid() === 0,
    hasSudo: () => commandWorks(['sudo', '-n', 'true']),
    hasApt: () => commandWorks(['apt-get', '--version']),
  };
}
