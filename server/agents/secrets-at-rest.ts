import type { AgentsConfig } from './config';
import type { AgentsDb } from './schema';
import { isSealed, sealSecret } from './channels/secret-box';

/**
 * Data migration run at every start (idempotent): TOTP secrets (enabled and pending) and webhook signing
 * secrets stored in plain text by earlier versions are sealed with the platform key (AES-256-GCM, the
 * key of channel credentials). SQL cannot encrypt, so this runs in code after the schema migrations.
 */
export async function sealStoredSecrets(db: AgentsDb, config: AgentsConfig): Promise<number> {
  return db.transaction().execute(async (tx) => {
    let sealed = 0;
    const users = await tx
      .selectFrom('users').select(['id', 'totp_secret', 'totp_pending'])
      .where((eb) => eb.or([
        eb.and([eb('totp_secret', 'is not', null), eb('totp_secret', 'not like', 'v1:%')]),
        eb.and([eb('totp_pending', 'is not', null), eb('totp_pending', 'not like', 'v1:%')]),
      ]))
      .execute();
    const seal = (v: string | null) => (v === null || isSealed(v) ? v : sealSecret(config, v));
    for (const u of users) {
      await tx.updateTable('users').set({ totp_secret: seal(u.totp_secret), totp_pending: seal(u.totp_pending) }).where('id', '=', u.id).execute();
      sealed += 1;
    }
    const hooks = await tx.selectFrom('webhook_secrets').select(['workspace_id', 'secret']).where('secret', 'not like', 'v1:%').execute();
    for (const h of hooks) {
      await tx.updateTable('webhook_secrets').set({ secret: sealSecret(config, h.secret) }).where('workspace_id', '=', h.workspace_id).execute();
      sealed += 1;
    }
    return sealed;
  });
}
