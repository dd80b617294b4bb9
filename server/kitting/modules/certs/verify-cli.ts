/** `npm run cert:verify -- <file.pdf> [--keys <jwks file or URL>]`: exit 0 only when the certificate is valid (see verify-run.ts). */
import { runVerify } from './verify-run';

runVerify(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(2);
  },
);
