import { createServer, type Server } from 'node:https';

export interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A local HTTPS receiver with the test kit's self-signed certificate (tests only). */
export interface FakeReceiver {
  url: string;
  cert: string;
  received: Received[];
  /** Statuses to answer in order; 200 once exhausted. */
  answers: number[];
  close(): Promise<void>;
}

/**
 * A self-signed certificate for 127.0.0.1 (valid until 2126), made once with
 * `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 36500 -subj /CN=127.0.0.1
 * -addext subjectAltName=IP:127.0.0.1`. Kept in the test kit so the tests need no openssl program on the machine;
 * it is trusted only where a test injects it as the certificate authority.
 */
const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgX0EhR88lie+/lr4m
8DHIMXl8l+or7STRFQDjR1OexcehRANCAARbkm6q28W7Dv6I9g9JBbbtIR0Vtj7u
JshLnZsqptif+X6AvBH+hoo84ZjvVMz2bsYA6bFwIsz2DprbeWPVSeFl
-----END PRIVATE KEY-----`;
const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBkDCCATagAwIBAgIUXMxe45vsqqkpP0BA6MtNvJr31gowCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJMTI3LjAuMC4xMCAXDTI2MTEyMzIwMjAyMloYDzIxMjYxMDMw
MjAyMDIyWjAUMRIwEAYDVQQDDAkxMjcuMC4wLjEwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAARbkm6q28W7Dv6I9g9JBbbtIR0Vtj7uJshLnZsqptif+X6AvBH+hoo8
4ZjvVMz2bsYA6bFwIsz2DprbeWPVSeFlo2QwYjAdBgNVHQ4EFgQUI9tXkb5TXci3
a9MRJiZJYi/ZixEwHwYDVR0jBBgwFoAUI9tXkb5TXci3a9MRJiZJYi/ZixEwDwYD
VR0TAQH/BAUwAwEB/zAPBgNVHREECDAGhwR/AAABMAoGCCqGSM49BAMCA0gAMEUC
IQCkDL/u9YXYsw06HN8Zu9Aa+WYHRBNOTYEdhp4T8UNOEAIgUaMwv6Apf60Eq90h
ZPNdDFWf9oQNQNV8XliIu/g89V8=
-----END CERTIFICATE-----`;

function selfSignedCert(): { key: string; cert: string } {
  return { key: TEST_KEY, cert: TEST_CERT };
}

export async function startReceiver(tls = selfSignedCert()): Promise<FakeReceiver> {
  const received: Received[] = [];
  const answers: number[] = [];
  const server: Server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(answers.shift() ?? 200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `https://127.0.0.1:${port}/hook`,
    cert: tls.cert,
    received,
    answers,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
