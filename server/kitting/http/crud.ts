import { z } from 'zod';
import { createShape, patchShape, type FieldMap, type Shape } from '../../../shared/fields';
import { idParams } from '../../../shared/api/contracts/common';
import type { Doc, Tx } from '../store/types';
import { defineRoute, type RouteDef } from './define-route';
import { notFound } from '../../core/errors';
import type { Scope } from '../security/policy';

export interface CrudOptions<F extends FieldMap> {
  coll: string;
  /** Scope the routes belong to: the list needs view, create, update and delete need edit. */
  scope: Scope;
  /** Plural list path and response key, e.g. /api/jobs → {jobs}. */
  listPath: string;
  listKey: string;
  /** Singular path and response key, e.g. /api/job → {job}. */
  itemPath: string;
  itemKey: string;
  fields: F;
  /** 404 text for an unknown id, e.g. 'job not found'. */
  notFoundError: string;
  newId: (tx: Tx, input: Shape<F>) => Promise<string>;
  /** Field that holds the id (default id). */
  idField?: string;
  /** Fields stamped or derived on create (created, chip, ...). */
  onCreate?: (doc: Shape<F> & Doc, tx: Tx) => Doc | Promise<Doc>;
  /** Fields derived on update from the merged record (updated, chip, ...). */
  onUpdate?: (merged: Doc, patch: Partial<Shape<F>>) => Doc;
  /** Runs in the update's transaction once the record is written (e.g. records that follow it). */
  afterUpdate?: (tx: Tx, before: Doc, after: Doc) => Promise<void>;
  sort?: (a: Doc, b: Doc) => number;
  listExtra?: (items: Doc[]) => Record<string, unknown>;
  createResponse?: (doc: Doc) => Record<string, unknown>;
  deleteResponse?: (id: string) => Record<string, unknown>;
  onDelete?: (tx: Tx, id: string) => Promise<void>;
  /** Runs in the delete's transaction with the record about to be removed. */
  beforeDelete?: (tx: Tx, current: Doc) => Promise<void>;
  /** Body schemas of create and update, from the collection's contract in shared/api/contracts (else built from `fields`). */
  requests?: CrudRequests<F>;
  /** Success bodies of the four routes, from the collection's contract in shared/api/contracts. */
  responses?: CrudResponses;
}

export interface CrudRequests<F extends FieldMap> {
  create: z.ZodType<Shape<F>, unknown>;
  patch: z.ZodType<Partial<Shape<F>>, unknown>;
}

export interface CrudResponses {
  list: z.ZodType;
  create: z.ZodType;
  update: z.ZodType;
  remove: z.ZodType;
}

/** List, create, update and delete routes for a plain collection, per the contract's conventions. */
export function crudRoutes<F extends FieldMap>(o: CrudOptions<F>): RouteDef[] {
  const idField = o.idField ?? 'id';
  const create = o.requests?.create ?? createShape(o.fields);
  const patch = o.requests?.patch ?? patchShape(o.fields);
  return [
    defineRoute({
      method: 'get',
      path: o.listPath,
      auth: `${o.scope}:view`,
      response: o.responses?.list,
      handler: async ({ app, ws }) => {
        const items = await app.store.list(ws, o.coll);
        if (o.sort) items.sort(o.sort);
        return { [o.listKey]: items, ...(o.listExtra ? o.listExtra(items) : {}) };
      },
    }),
    defineRoute({
      method: 'post',
      path: o.itemPath,
      auth: `${o.scope}:edit`,
      body: create,
      response: o.responses?.create,
      handler: async ({ app, ws, body }) => {
        const doc = await app.store.transact(ws, async (tx) => {
          const id = await o.newId(tx, body);
          const base = { [idField]: id, ...body } as Shape<F> & Doc;
          const full = o.onCreate ? { ...base, ...(await o.onCreate(base, tx)) } : base;
          // A create never overwrites: an id that exists already is refused by the store (409 record_exists).
          return tx.create(o.coll, id, full);
        });
        return o.createResponse ? o.createResponse(doc) : { [o.itemKey]: doc };
      },
    }),
    defineRoute({
      method: 'post',
      path: `${o.itemPath}/:id`,
      auth: `${o.scope}:edit`,
      params: idParams,
      body: patch,
      response: o.responses?.update,
      handler: async ({ app, ws, params, body }) => {
        const doc = await app.store.transact(ws, async (tx) => {
          const current = await tx.get(o.coll, params.id);
          if (!current) throw notFound(o.notFoundError);
          const fields: Doc = { ...body };
          delete fields[idField];
          const merged = { ...current, ...fields };
          const derived = o.onUpdate ? o.onUpdate(merged, body) : {};
          const written = await tx.patch(o.coll, params.id, { ...fields, ...derived });
          if (o.afterUpdate && written) await o.afterUpdate(tx, current, written);
          return written;
        });
        return { [o.itemKey]: doc };
      },
    }),
    defineRoute({
      method: 'post',
      path: `${o.itemPath}/:id/delete`,
      auth: `${o.scope}:edit`,
      params: idParams,
      response: o.responses?.remove,
      handler: async ({ app, ws, params }) => {
        await app.store.transact(ws, async (tx) => {
          if (o.beforeDelete) {
            const current = await tx.get(o.coll, params.id);
            if (current) await o.beforeDelete(tx, current);
          }
          if (!(await tx.remove(o.coll, params.id))) throw notFound(o.notFoundError);
          if (o.onDelete) await o.onDelete(tx, params.id);
        });
        return o.deleteResponse ? o.deleteResponse(params.id) : { id: params.id };
      },
    }),
  ];
}
