/**
 * A `*_TRUST_PROXY` variable of any service: the number of reverse-proxy hops whose X-Forwarded-For and
 * X-Forwarded-Proto are believed (0 = none). `true` is refused: trusting every hop lets a client pick its address.
 */
export function parseTrustProxy(name: string, v: string | undefined): number {
  if (v === undefined || v === '' || v === '0' || v === 'false') return 0;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 10) throw new Error(`${name} must be a number of proxy hops 0..10, got ${v}`);
  return n;
}
