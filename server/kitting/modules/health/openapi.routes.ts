import { ErrorBody } from '../../../../shared/api/contracts/errors';
import { OpenApiDocument } from '../../../../shared/api/contracts/meta';
import { defineRoute, Reply, type RouteDef } from '../../http/define-route';
import { openApiDocument } from '../../../core/http/openapi';

const INFO = {
  title: 'Kitting Operations API',
  version: '1',
  description: 'Success bodies carry ok:true, failures ok:false and error (see the default response).',
};

/** GET /api/openapi.json: the OpenAPI 3.1 document of every route of the list, written once on first call. */
export function openApiRoutes(routes: () => readonly RouteDef[]): RouteDef[] {
  let doc: string | null = null;
  return [
    defineRoute({
      method: 'get',
      path: '/api/openapi.json',
      auth: 'public',
      workspace: false,
      produces: 'application/json',
      response: OpenApiDocument,
      handler: () => {
        doc ??= JSON.stringify(openApiDocument(INFO, routes(), ErrorBody));
        return new Reply(200, doc, { 'Content-Type': 'application/json; charset=utf-8' });
      },
    }),
  ];
}
