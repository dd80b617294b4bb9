/**
 * Wire contract of the Kitting Operations API (docs/spec/kitting-api.md) as zod schemas, one file per
 * domain under ./contracts. Each domain file holds its records and the success body of each route
 * (`<domain>Responses`), used by the server's routes (checked in tests, exported as OpenAPI at
 * /api/openapi.json) and by the renderer's client.
 *
 * Response schemas are deliberately tolerant: they name the fields the spec names and let extra
 * fields through (looseObject), so a server that adds a field never breaks the UI, while a body of
 * the wrong shape (an HTML page, a missing list) is caught.
 * Pure TypeScript: no node:, electron or DOM imports.
 */
export * from './contracts/ops';
export * from './contracts/devices';
export * from './contracts/work';
export * from './contracts/customers';
export * from './contracts/certs-labels';
export * from './contracts/cert-verify';
export * from './contracts/quotes';
export * from './contracts/staffing';
export * from './contracts/platform';
export * from './contracts/errors';
export * from './contracts/backoffice';
export * from './contracts/backoffice-requests';
export * from './contracts/meta';
export * from './contracts/workspace';
export * from './contracts/accounts';
export * from './contracts/admin';
export * from './contracts/public';
export * from './contracts/sync';
export * from './contracts/common';
export * from './contracts/inbound';
