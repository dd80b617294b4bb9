import { ErrorBody } from '../../shared/api/contracts/errors';
import { OpenApiDocument } from '../../shared/api/contracts/meta';
import { openApiDocument } from '../core/http/openapi';
import { Reply } from '../core/http/route-core';
import { studioRoute, type StudioRoute } from './route';

const INFO = { title: 'Publishing Studio API', version: '1', description: 'Success bodies carry ok:true, failures ok:false and error (see the default response).' };

/** GET /api/openapi.json: the OpenAPI 3.1 document of every studio route, written once on first call. */
export function studioOpenApiRoutes(routes: () => readonly StudioRoute[]): StudioRoute[] {
  let doc: string | null = null;
  return [
    studioRoute({
      method: 'get',
      path: '/api/openapi.json',
      auth: 'PUBLIC',
      produces: 'application/json',
      response: OpenApiDocument,
      handler: () => {
        doc ??= JSON.stringify(openApiDocument(INFO, routes(), ErrorBody));
        return new Reply(200, doc, { 'Content-Type': 'application/json; charset=utf-8' });
      },
    }),
  ];
}
