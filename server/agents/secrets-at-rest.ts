import type { AgentsConfig } from './config';
import type { Db } from './db';
import { isSealed, sealSecret } from './channels/secret-box';

/**
 * Data migration run at every start (idempotent): TOTP secrets (enabled and pending) and webhook signing
 * secrets stored in plain text by earlier versions are sealed with the platform key (AES-256-GCM, the
 * key of channel credentials). SQL cannot encrypt, so this runs in code after the schema migrations.
 */
export function sealStoredSecrets(db: Db, config: AgentsConfig): number {
  let sealed = 0;
  db.transaction(() => {
    const users = db.prepare("SELECT id, totp_secret, totp_pending FROM users WHERE (totp_secret IS NOT NULL AND totp_secret NOT LIKE 'v1:%') OR (totp_pending IS NOT NULL AND totp_pending NOT LIKE 'v1:%')").all() as { id: string; totp_secret: string | null; totp_pending: string | null }[];
    const setUser = db.prepare('UPDATE users SET totp_secret = ?, totp_pending = ? WHERE id = ?');
    for (const u of users) {
      const seal = (v: string | null) => (v === null || isSealed(v) ? v : sealSecret(config, v));
      setUser.run(seal(u.totp_secret), seal(u.totp_pending), u.id);
      sealed += 1;
    }
    const hooks = db.prepare("SELECT workspace_id, secret FROM webhook_secrets WHERE secret NOT LIKE 'v1:%'").all() as { workspace_id: string; secret: string }[];
    const setHook = db.prepare('UPDATE webhook_secrets SET secret = ? WHERE workspace_id = ?');
    for (const h of hooks) {
      setHook.run(sealSecret(config, h.secret), h.workspace_id);
      sealed += 1;
    }
  })();
  return sealed;
}
