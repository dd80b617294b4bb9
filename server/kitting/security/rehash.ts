import type { AppContext } from '../context';
import { hashPassword } from '../../core/security/passwords';
import { PLATFORM_WS } from './platform';

/** Replace a stored hash made at weaker parameters, right after the password was verified. */
export async function rehash(app: AppContext, coll: string, id: string, password: string): Promise<void> {
  const pwHash = await hashPassword(password);
  await app.store.transact(PLATFORM_WS, async (tx) => {
    if (await tx.get(coll, id)) await tx.patch(coll, id, { pwHash });
  });
}
