import { createHash } from 'node:crypto';
import { declareSeries, padNumber } from '../../store/series';
import type { Doc } from '../../store/types';

export const ERASURE_CERTS = 'erasureCerts';

export type MethodKey = 'purge' | 'clear' | 'destroy';

/** Method labels per NIST SP 800-88 Rev.1 (Clear, Purge, Destroy). */
export const METHODS: Record<MethodKey, { method: string; nist: string }> = {
  purge: { method: '暗号化消去', nist: 'Purge' },
  clear: { method: '論理消去', nist: 'Clear' },
  destroy: { method: '物理破壊', nist: 'Destroy' },
};

export const isMethodKey = (v: unknown): v is MethodKey => typeof v === 'string' && Object.hasOwn(METHODS, v);

export const certNo = (year: number | string, n: number) => `KIT-ERZ-${year}-${padNumber(n, 4)}`;

export interface CertDevice {
  model: string;
  id: string;
  storage: string;
}

export interface CertIssuer {
  name: string;
  addr: string;
  tel: string;
  regno: string;
  rep: string;
}

/** A certificate as issued (a type alias, so it stays assignable to a store document). */
export type CertData = {
  no: string;
  date: string;
  cust: string;
  count: number;
  methodKey: MethodKey;
  method: string;
  nist: string;
  devices: CertDevice[];
  operator: string;
  issuer: CertIssuer;
  issuedAt: number;
  created: number;
};

export type ErasureCert = CertData & { digest: string };

/** The fields the digest covers, in a fixed order (the record minus the digest itself). */
export function certDigest(c: CertData): string {
  const canonical = {
    no: c.no,
    date: c.date,
    cust: c.cust,
    count: c.count,
    methodKey: c.methodKey,
    method: c.method,
    nist: c.nist,
    devices: c.devices.map((d) => ({ model: d.model, id: d.id, storage: d.storage })),
    operator: c.operator,
    issuer: { name: c.issuer.name, addr: c.issuer.addr, tel: c.issuer.tel, regno: c.issuer.regno, rep: c.issuer.rep },
    issuedAt: c.issuedAt,
  };
  return createHash('sha256').update(JSON.stringify(canonical), 'utf8').digest('hex');
}

/** Newest first: by issue time, then by number. */
/**
 * A renumbered certificate keeps the number a PDF printed before enrolment shows (formerNo), and
 * its digest follows the new number.
 */
function certFollow(doc: Doc, before: string, after: string): Doc {
  const out: Doc = { formerNo: typeof doc.formerNo === 'string' && doc.formerNo !== '' ? doc.formerNo : before };
  const issuer = doc.issuer as Doc | undefined;
  if (typeof doc.digest === 'string' && issuer && typeof issuer === 'object' && Array.isArray(doc.devices)) {
    out.formerDigest = typeof doc.formerDigest === 'string' ? doc.formerDigest : doc.digest;
    out.digest = certDigest({ ...(doc as CertData), no: after });
  }
  return out;
}

/** Erasure certificates restart every year: KIT-ERZ-YYYY-NNNN. Issuing them offline is what a bench is for. */
export const CERT_NUMBERS = declareSeries({
  name: 'erz',
  period: 'year',
  coll: ERASURE_CERTS,
  field: 'no',
  keyed: true,
  format: (n, year) => certNo(year, n),
  pattern: /^KIT-ERZ-(?<p>\d{4})-(?<n>\d{4,})$/,
  reserve: 1000,
  follow: certFollow,
});
export const certSeries = (year: number) => CERT_NUMBERS.counter(String(year));

export function newestFirst(a: Doc, b: Doc): number {
  const d = Number(b.issuedAt ?? b.created ?? 0) - Number(a.issuedAt ?? a.created ?? 0);
  return d !== 0 ? d : String(b.no).localeCompare(String(a.no));
}
