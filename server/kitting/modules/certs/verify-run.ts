/**
 * The offline verifier of a certificate PDF (entry: verify-cli.ts):
 *   npm run cert:verify -- <file.pdf> [--keys <jwks file or URL>]
 * Reads the signed record the PDF attaches (certificate.json), checks its signature against the issuing
 * workspace's published keys and that the PDF still prints what was signed, prints the certificate and
 * `valid` or why not. Exit code 0 only when valid; 1 when not valid; 2 when it cannot check (usage, no keys).
 * Without --keys it asks the central this bench is enrolled with (KITTING_DATA_DIR, default ./data).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { ENROLMENT_KEY } from '../../sync/bench';
import type { PublishedKey } from './cert-keys';
import { checkProof, proofReasonJa } from './cert-proof';
import { inspectProofPdf, MAX_PDF_BYTES, printedMismatch } from './cert-pdf-proof';
import { payloadOf, type CertRecord } from './cert-sign';

class CliError extends Error {}

function parseArgs(argv: string[]): { file: string; keys: string | null } {
  let file: string | null = null;
  let keys: string | null = null;
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i];
    if (a === '--keys') keys = argv[++i] ?? null;
    else if (a.startsWith('--keys=')) keys = a.slice(7);
    else if (!a.startsWith('--') && file === null) file = a;
    else throw new CliError(`unknown argument: ${a}`);
  }
  if (!file) throw new CliError('usage: npm run cert:verify -- <file.pdf> [--keys <jwks file or URL>]');
  return { file, keys };
}

async function fetchKeys(url: string, ws: string): Promise<PublishedKey[]> {
  const u = new URL(url);
  if (!u.searchParams.has('ws')) u.searchParams.set('ws', ws);
  const res = await fetch(u, { signal: AbortSignal.timeout(15_000) }).catch((err: unknown) => {
    throw new CliError(`cannot reach ${u.origin}: ${err instanceof Error ? err.message : String(err)}`);
  });
  if (!res.ok) throw new CliError(`${u.href} answered ${res.status}`);
  return keysOf(await res.json(), u.href);
}

function keysOf(json: unknown, from: string): PublishedKey[] {
  const keys = (json as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new CliError(`${from} is not a JWKS ({"keys": [...]})`);
  return keys as PublishedKey[];
}

/** The central this bench is enrolled with (its enrolment in the bench's database), or null. */
function enrolledCentral(dataDir: string): string | null {
  const file = join(dataDir, 'kitting.db');
  if (!existsSync(file)) return null;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(ENROLMENT_KEY) as { value?: string } | undefined;
    const e = row?.value ? (JSON.parse(row.value) as { central?: unknown }) : null;
    return typeof e?.central === 'string' && e.central ? e.central : null;
  } catch {
    return null;
  } finally {
    db.close();
  }
}

async function loadKeys(spec: string | null, ws: string, env: NodeJS.ProcessEnv): Promise<PublishedKey[]> {
  if (spec && /^https?:\/\//i.test(spec)) return fetchKeys(spec, ws);
  if (spec) {
    let text: string;
    try {
      text = readFileSync(spec, 'utf8');
    } catch {
      throw new CliError(`cannot read the key file ${spec}`);
    }
    try {
      return keysOf(JSON.parse(text), spec);
    } catch (err) {
      throw err instanceof CliError ? err : new CliError(`${spec} is not JSON`);
    }
  }
  const central = enrolledCentral(resolve(env.KITTING_DATA_DIR ?? join(process.cwd(), 'data')));
  if (!central) throw new CliError('no keys to check against: pass --keys <jwks file or URL> (this machine is not a bench enrolled with a central)');
  return fetchKeys(`${central}/api/public/cert-keys`, ws);
}

function describeRecord(r: CertRecord, out: (line: string) => void): void {
  out(`証明書番号 / No.      ${r.no}`);
  out(`実施日 / Date         ${r.date}`);
  out(`お客様 / Customer     ${r.customer}`);
  out(`消去方式 / Method     ${r.method?.technique} (NIST SP 800-88 ${r.method?.category})`);
  out(`対象台数 / Devices    ${r.count}`);
  for (const d of (r.devices ?? []).slice(0, 50)) out(`  ${d.imei ?? d.serial ?? '—'}  ${d.model ?? ''}  ${d.storage ?? ''}`);
  if ((r.devices ?? []).length > 50) out(`  … ${(r.devices ?? []).length - 50} more`);
  out(`発行者 / Issuer       ${r.issuer?.name ?? ''}`);
  out(`発行日時 / Issued at  ${r.issuedAt}`);
}

/** Verify one PDF; answers the exit code. */
export async function runVerify(argv: string[], env: NodeJS.ProcessEnv = process.env, out: (l: string) => void = console.log, err: (l: string) => void = console.error): Promise<number> {
  try {
    const { file, keys } = parseArgs(argv);
    if (!existsSync(file)) throw new CliError(`no such file: ${file}`);
    if (statSync(file).size > MAX_PDF_BYTES) throw new CliError(`${file} is larger than ${MAX_PDF_BYTES} bytes`);
    const bytes = new Uint8Array(readFileSync(file));
    const { readable, proof, print } = await inspectProofPdf(bytes);
    if (!readable) {
      out('not valid: not a readable PDF');
      return 1;
    }
    if (!proof || !print) {
      out('not valid: no signed certificate.json attached / 署名された証明書データが添付されていません');
      return 1;
    }
    const signed = payloadOf(proof.jws) as CertRecord | null;
    if (!signed || typeof signed.ws !== 'string') {
      out('not valid: malformed signature');
      return 1;
    }
    const published = await loadKeys(keys, signed.ws, env);
    const check = await checkProof(proof, async (ws) => (ws === signed.ws ? published : []));
    if (check.record) describeRecord(check.record, out);
    if (!check.ok) {
      out(`not valid: ${check.reason} / ${proofReasonJa(check.reason)}`);
      return 1;
    }
    out(`署名鍵 / Key id       ${check.key.kid}${check.key.retired ? ' (retired)' : ''}`);
    const printed = printedMismatch(print, check.record);
    if (printed) {
      out(`not valid: ${printed} / PDF の印字内容が署名された証明書データと一致しません`);
      return 1;
    }
    out('valid');
    return 0;
  } catch (e) {
    if (e instanceof CliError) {
      err(e.message);
      return 2;
    }
    throw e;
  }
}
