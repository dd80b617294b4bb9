import { describe, expect, it } from 'vitest';
import { assertDeclaredAccess } from './route-access';

describe('a route without a declaration of who may call it stops the start', () => {
  it('the shared rule names the route', () => {
    expect(() => assertDeclaredAccess([{ method: 'post', path: '/api/x', auth: 'public' }], ['public'])).not.toThrow();
    expect(() => assertDeclaredAccess([{ method: 'post', path: '/api/x' }], ['public'])).toThrow('route without a valid auth declaration: POST /api/x');
    expect(() => assertDeclaredAccess([{ method: 'get', path: '/api/y', auth: 'anyone' }], ['public'])).toThrow('GET /api/y');
  });
});
