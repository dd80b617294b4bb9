import { AgentsErrorBody } from '../../shared/api/contracts/agents';
import { OpenApiDocument } from '../../shared/api/contracts/meta';
import { openApiDocument } from '../core/http/openapi';
import { Reply } from '../core/http/route-core';
import { route, type AgentRoute } from './http';

const INFO = { title: 'Conversational Agent Platform API', version: '1', description: 'Success bodies are bare JSON; failures carry error (see the default response).' };

/** GET /api/openapi.json (public): the OpenAPI 3.1 document of every platform route, written once on first call. */
export function agentsOpenApiRoutes(routes: () => readonly AgentRoute[]): AgentRoute[] {
  let doc: string | null = null;
  return [
    route({
      method: 'get',
      path: '/api/openapi.json',
      auth: 'public',
      produces: 'application/json',
      response: OpenApiDocument,
      handler: () => {
        doc ??= JSON.stringify(openApiDocument(INFO, routes(), AgentsErrorBody));
        return new Reply(200, doc, { 'Content-Type': 'application/json; charset=utf-8' });
      },
    }),
  ];
}
