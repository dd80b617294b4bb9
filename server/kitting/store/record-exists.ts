import { conflict, type DomainError } from '../../core/errors';

/** 409 for a create that met an existing key: a create never overwrites a record (live or deleted). */
export function recordExists(coll: string, id: string): DomainError {
  return conflict('record_exists', { coll, id, message: `「${id}」は既に登録されています` });
}
