import type { NextFunction, Request, Response, Router } from 'express';
import express from 'express';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DomainError } from '../core/errors';
import { API_KEY_LABEL, bearer, callerFromApiKey, invalidApiKey } from './auth';
import type { Caller, StudioContext } from './context';
import { MCP_TOOLS, runTool } from './mcp-tools';

const INSTRUCTIONS =
  'Publishing Studio: generate images, video and audio. Call quote_generation first to see the price, then generate_image or ' +
  'generate_video, then job_status until the job is completed, failed or nsfw. Media urls expire: save results in the studio.';

function rpcError(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/** One JSON-RPC 2.0 message: a request or notification (method), or a response (result or error). */
function isMessage(m: unknown): boolean {
  if (!m || typeof m !== 'object' || Array.isArray(m)) return false;
  const o = m as Record<string, unknown>;
  if (o.jsonrpc !== '2.0') return false;
  const idOk = o.id === undefined || typeof o.id === 'string' || (typeof o.id === 'number' && Number.isFinite(o.id));
  if (typeof o.method === 'string') return idOk && (o.params === undefined || (typeof o.params === 'object' && o.params !== null));
  return o.id !== undefined && idOk && ('result' in o || 'error' in o);
}

/**
 * The SDK's low-level Server: the high-level McpServer answers an unknown tool with an isError result,
 * while the contract wants JSON-RPC error -32602, so tools/list and tools/call are handled here.
 */
function serverFor(app: StudioContext, caller: Caller): Server {
  const server = new Server({ name: 'publishing-studio', version: '1.0.0' }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: MCP_TOOLS.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })) }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = MCP_TOOLS.find((t) => t.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return runTool(app, caller, tool, request.params.arguments ?? {});
  });
  return server;
}

/**
 * `/mcp`: Streamable HTTP in stateless JSON-response mode. Each POST carries one message and is
 * answered by a fresh server bound to the API key's workspace; GET and DELETE are 405.
 */
export function mountMcp(router: Router, app: StudioContext): void {
  const notAllowed = (_req: Request, res: Response) => {
    res.setHeader('Allow', 'POST');
    rpcError(res, 405, -32000, 'Method not allowed.');
  };
  router.get('/mcp', notAllowed);
  router.delete('/mcp', notAllowed);
  router.post('/mcp', express.text({ type: () => true, limit: '1mb' }), async (req: Request, res: Response, next: NextFunction) => {
    try {
      const token = bearer(req);
      if (!token || !token.startsWith(API_KEY_LABEL)) throw invalidApiKey();
      const caller = await callerFromApiKey(app, token);
      app.limits.mcp.hit(caller.apiKeyId ?? token, 'too many requests');
      let message: unknown;
      try {
        message = JSON.parse(typeof req.body === 'string' ? req.body : '');
      } catch {
        return rpcError(res, 400, ErrorCode.ParseError, 'Parse error: Invalid JSON');
      }
      if (!isMessage(message)) return rpcError(res, 400, ErrorCode.InvalidRequest, 'Invalid Request: one JSON-RPC 2.0 message per request');
      // JSON-response mode: accept clients that only ask for JSON.
      const accept = String(req.headers.accept ?? '');
      if (!accept.includes('application/json') || !accept.includes('text/event-stream')) req.headers.accept = 'application/json, text/event-stream';
      req.headers['content-type'] = 'application/json';
      const server = serverFor(app, caller);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, message);
    } catch (err) {
      if (err instanceof DomainError && err.kind === 'unauthorized') res.setHeader('WWW-Authenticate', 'Bearer');
      next(err);
    }
  });
}
