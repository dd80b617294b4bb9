import { randomBytes } from 'node:crypto';
import type { Caller, StudioContext } from './context';
import { nowIso } from './db';
import { checkAllowance, meter } from './billing';
import { insertPost, listPosts, type Post } from './repositories/posts.repository';

export function postsOf(app: StudioContext, ws: number): Promise<Post[]> {
  return listPosts(app.db, ws);
}

/** A post counts against the plan's monthly posts (checked and metered in its transaction). */
export async function createPost(app: StudioContext, caller: Caller, input: { title: string; body: string; scheduled_at?: string }): Promise<Post> {
  const post: Post = {
    id: `post_${randomBytes(8).toString('hex')}`, title: input.title, body: input.body, scheduled_at: input.scheduled_at ?? null,
    created_by: caller.actor, created_at: nowIso(),
  };
  await app.db.transaction().execute(async (trx) => {
    const limit = await checkAllowance(trx, caller.ws, 'posts');
    await insertPost(trx, caller.ws, post);
    await meter(trx, caller.ws, 'posts', limit);
  });
  return post;
}
