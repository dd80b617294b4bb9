import type { Selectable } from 'kysely';
import type { StudioDb } from '../db';
import type { PostsTable } from '../schema';

export type Post = Omit<Selectable<PostsTable>, 'workspace_id'>;

export async function listPosts(db: StudioDb, ws: number): Promise<Post[]> {
  return db
    .selectFrom('posts').select(['id', 'title', 'body', 'scheduled_at', 'created_by', 'created_at'])
    .where('workspace_id', '=', ws).orderBy('created_at', 'desc').orderBy('id', 'desc')
    .execute();
}

export async function insertPost(db: StudioDb, ws: number, post: Post): Promise<void> {
  await db.insertInto('posts').values({ ...post, workspace_id: ws }).execute();
}
