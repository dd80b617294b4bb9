import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedFetch, isInternalAddress, OutboundError, parseIp } from './ssrf';

describe('isInternalAddress', () => {
  it('refuses every internal IPv4 range', () => {
    for (const ip of ['127.0.0.1', '127.8.9.10', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '100.127.255.254', '0.0.0.0', '224.0.0.1', '239.255.255.250', '255.255.255.255', '198.18.0.1', '192.0.0.8'])
      expect(isInternalAddress(ip), ip).toBe(true);
  });

  it('reads hex, decimal and octal IPv4 forms as the address they stand for', () => {
    for (const ip of ['0x7f000001', '2130706433', '0177.0.0.1', '0x7f.1', '127.1', '0xa9.0xfe.0xa9.0xfe', '017700000001'])
      expect(isInternalAddress(ip), ip).toBe(true);
    expect(parseIp('0x7f.1')).toEqual([127, 0, 0, 1]);
    expect(parseIp('2130706433')).toEqual([127, 0, 0, 1]);
  });

  it('refuses IPv6 loopback, unspecified, ULA, link-local, site-local and multicast', () => {
    for (const ip of ['::1', '::', '[::1]', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'fe80::1%eth0', 'febf::1', 'fec0::1', 'ff02::1', '0:0:0:0:0:0:0:1'])
      expect(isInternalAddress(ip), ip).toBe(true);
  });

  it('refuses IPv4 addresses embedded in IPv6: mapped, compatible, translated, NAT64, 6to4, Teredo', () => {
    for (const ip of [
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '[::ffff:7f00:1]',
      '0:0:0:0:0:ffff:7f00:0001',
      '::ffff:a9fe:a9fe',
      '::ffff:169.254.169.254',
      '::127.0.0.1',
      '::7f00:1',
      '::ffff:0:7f00:1',
      '64:ff9b::127.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b::10.0.0.1',
      '64:ff9b:1::1',
      '2002:7f00:1::',
      '2002:a9fe:a9fe::1',
      '2002:c0a8:0101::1',
      '2001:0:7f00:1::',
    ])
      expect(isInternalAddress(ip), ip).toBe(true);
  });

  it('lets public addresses through, including public ones embedded in IPv6', () => {
    for (const ip of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2001:4860:4860::8888', '2606:4700::1111', '64:ff9b::8.8.8.8', '2002:0808:0808::1', '93.184.216.34'])
      expect(isInternalAddress(ip), ip).toBe(false);
  });

  it('treats what is not an address as internal', () => {
    for (const ip of ['', 'localhost', 'example.com', '1.2.3.4.5', '::g', '1::2::3', '256.1.1.1.1']) expect(isInternalAddress(ip), ip).toBe(true);
  });
});

describe('guardedFetch', () => {
  let server: Server;
  let port = 0;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits += 1;
      if (req.url === '/big') {
        // 8 MB streamed without a content-length: the guard must stop at its cap.
        const chunk = Buffer.alloc(64 * 1024, 97);
        let sent = 0;
        res.writeHead(200, { 'content-type': 'text/plain' });
        const pump = () => {
          while (sent < 128) {
            sent += 1;
            if (!res.write(chunk)) {
              res.once('drain', pump);
              return;
            }
          }
          res.end();
        };
        res.on('close', () => (sent = 128));
        pump();
      } else res.end('secret');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const refused = async (url: string) => {
    const err = await guardedFetch(url, {}, { allowInternal: false }).catch((e: unknown) => e);
    expect(err, url).toBeInstanceOf(OutboundError);
    return err as OutboundError;
  };

  it('refuses loopback in every spelling and never connects', async () => {
    const before = hits;
    for (const host of ['127.0.0.1', 'localhost', '[::1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '0x7f000001', '2130706433', '0177.0.0.1', 'foo.localhost'])
      expect((await refused(`http://${host}:${port}/`)).message).toMatch(/public address|does not resolve/);
    expect(hits).toBe(before);
  });

  it('refuses non-http schemes and credentials in the url', async () => {
    expect((await refused('file:///etc/passwd')).message).toBe('url must be http or https');
    expect((await refused('http://user:pw@example.com/')).message).toBe('url must not carry credentials');
    expect((await guardedFetch('http://example.com/', {}, { allowInternal: false, httpsOnly: true }).catch((e: Error) => e.message))).toBe('url must be https');
  });

  it('checks every redirect hop: an allowed first hop cannot lead to loopback', async () => {
    // Only this server's own host:port is allowed (the test hook); its redirect goes to 127.0.0.1 on another port.
    const other = createServer((_q, r) => r.end('inside'));
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
    let otherHits = 0;
    other.on('request', () => (otherHits += 1));
    const otherPort = (other.address() as { port: number }).port;
    const jump = createServer((_q, r) => r.writeHead(302, { location: `http://[::ffff:127.0.0.1]:${otherPort}/` }).end());
    await new Promise<void>((r) => jump.listen(0, '127.0.0.1', () => r()));
    const jumpHost = `127.0.0.1:${(jump.address() as { port: number }).port}`;
    const err = await guardedFetch(`http://${jumpHost}/`, {}, { allowInternal: (h) => h === jumpHost }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutboundError);
    expect((err as OutboundError).message).toBe('url must be a public address');
    expect(otherHits).toBe(0);
    await new Promise<void>((r) => jump.close(() => r()));
    await new Promise<void>((r) => other.close(() => r()));
  });

  it('stops reading an oversize body while it streams', async () => {
    const err = await guardedFetch(`http://127.0.0.1:${port}/big`, {}, { allowInternal: true, maxBytes: 256 * 1024 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutboundError);
    expect((err as OutboundError).kind).toBe('too_large');
  });

  it('answers a body within the cap when internal receivers are allowed (tests only)', async () => {
    const res = await guardedFetch(`http://127.0.0.1:${port}/plain`, {}, { allowInternal: true });
    expect(res.status).toBe(200);
    expect(res.text()).toBe('secret');
  });
});
