/**
 * Address parsing and classification for the outbound-fetch guard (ssrf.ts). Bytes, not strings, are
 * compared, so every spelling of an address (IPv4-mapped in hex, compressed IPv6, 0x7f.1) lands on the
 * same answer.
 */

/** One IPv4 part as inet_aton reads it: 0x.. hex, 0.. octal, else decimal. */
function v4Part(p: string): number | null {
  if (/^0x[0-9a-f]*$/i.test(p)) return p.length === 2 ? 0 : parseInt(p.slice(2), 16);
  if (/^0[0-7]*$/.test(p)) return parseInt(p, 8);
  if (/^[1-9][0-9]*$/.test(p)) return Number(p);
  return null;
}

/** IPv4 in dotted, hex, decimal or octal form (1 to 4 parts, as inet_aton), or null. */
function parseIPv4(s: string): number[] | null {
  const parts = s.split('.');
  if (parts.length < 1 || parts.length > 4) return null;
  const nums = parts.map(v4Part);
  if (nums.some((n) => n === null)) return null;
  const n = nums as number[];
  const last = n[n.length - 1];
  const lastMax = 2 ** (8 * (5 - n.length)) - 1;
  if (n.slice(0, -1).some((x) => x > 255) || last > lastMax) return null;
  let value = 0;
  for (let i = 0; i < n.length - 1; i++) value += n[i] * 2 ** (8 * (3 - i));
  value += last;
  return [(value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];
}

/** IPv6 (with :: compression, an embedded dotted quad and an optional %zone) as 16 bytes, or null. */
function parseIPv6(s: string): number[] | null {
  const x = s.replace(/%.*$/, '');
  if (!/^[0-9a-f:.]+$/i.test(x) || (x.match(/::/g) ?? []).length > 1) return null;
  const [head, tail] = x.includes('::') ? x.split('::') : [x, null];
  const groups = (str: string): number[] | null => {
    if (str === '') return [];
    const out: number[] = [];
    const items = str.split(':');
    for (let i = 0; i < items.length; i++) {
      const it = items[i];
      if (it.includes('.')) {
        if (i !== items.length - 1 || !/^\d+\.\d+\.\d+\.\d+$/.test(it)) return null;
        const q = it.split('.').map(Number);
        if (q.some((b) => b > 255)) return null;
        out.push((q[0] << 8) | q[1], (q[2] << 8) | q[3]);
      } else {
        if (!/^[0-9a-f]{1,4}$/i.test(it)) return null;
        out.push(parseInt(it, 16));
      }
    }
    return out;
  };
  const h = groups(head);
  const t = tail === null ? [] : groups(tail);
  if (!h || !t) return null;
  const fill = 8 - h.length - t.length;
  if (tail === null ? fill !== 0 : fill < 1) return null;
  const all = [...h, ...Array(tail === null ? 0 : fill).fill(0), ...t];
  return all.flatMap((g) => [(g >> 8) & 255, g & 255]);
}

/** 4 bytes (IPv4) or 16 bytes (IPv6) of a host, bracketed or not; null when it is not an address. */
export function parseIp(host: string): number[] | null {
  const h = host.trim().replace(/^\[|\]$/g, '').toLowerCase();
  if (h.includes(':')) return parseIPv6(h);
  return parseIPv4(h);
}

function internalV4(b: number[]): boolean {
  const [a, c] = b;
  return (
    a === 0 || // this network, unspecified
    a === 10 ||
    a === 127 ||
    (a === 100 && c >= 64 && c <= 127) || // CGNAT 100.64/10
    (a === 169 && c === 254) || // link-local, cloud metadata
    (a === 172 && c >= 16 && c <= 31) ||
    (a === 192 && c === 168) ||
    (a === 192 && c === 0 && (b[2] === 0 || b[2] === 2)) || // IETF protocol assignments, TEST-NET-1
    (a === 198 && (c === 18 || c === 19)) || // benchmarking
    (a === 198 && c === 51 && b[2] === 100) ||
    (a === 203 && c === 0 && b[2] === 113) ||
    a >= 224 // multicast, reserved, broadcast
  );
}

const zero = (b: number[], from: number, to: number) => b.slice(from, to).every((x) => x === 0);

/** Internal by the rules of isInternalAddress (ssrf.ts), for 4 or 16 bytes. */
export function internalBytes(b: number[]): boolean {
  if (b.length === 4) return internalV4(b);
  if (b.length !== 16) return true;
  const w0 = (b[0] << 8) | b[1];
  const w1 = (b[2] << 8) | b[3];
  // ::/96 (unspecified, loopback, IPv4-compatible) and ::ffff:0:0/96 (IPv4-mapped), ::ffff:0:0:0/96 (translated)
  if (zero(b, 0, 10) && ((b[10] === 0 && b[11] === 0) || (b[10] === 255 && b[11] === 255))) return true;
  if (zero(b, 0, 8) && b[8] === 255 && b[9] === 255 && zero(b, 10, 12)) return true;
  // NAT64 64:ff9b::/96 carries an IPv4 address; 64:ff9b:1::/48 is local-use NAT64
  if (w0 === 0x64 && w1 === 0xff9b && zero(b, 4, 12)) return internalV4(b.slice(12));
  if (w0 === 0x64 && w1 === 0xff9b && b[4] === 0 && b[5] === 1) return true;
  // 6to4 2002:AABB:CCDD::/48 carries AA.BB.CC.DD
  if (w0 === 0x2002) return internalV4(b.slice(2, 6));
  // Teredo 2001:0::/32: server address in clear, client address inverted
  if (w0 === 0x2001 && w1 === 0) return internalV4(b.slice(4, 8)) || internalV4(b.slice(12).map((x) => x ^ 255));
  if (w0 === 0x2001 && w1 === 0x0db8) return true; // documentation
  if (w0 === 0x0100 && zero(b, 2, 8)) return true; // discard-only 100::/64
  if ((b[0] & 0xfe) === 0xfc) return true; // ULA fc00::/7
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0x80) return true; // link-local fe80::/10
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0xc0) return true; // site-local fec0::/10 (deprecated)
  if (b[0] === 0xff) return true; // multicast
  return false;
}
