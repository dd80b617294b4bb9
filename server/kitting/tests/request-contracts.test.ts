import { describe, expect, it } from 'vitest';
import * as contracts from '../../../shared/api/schemas';
import { exportedSchemas, ownRequestSchemas } from '../../core/testing/request-contracts.testkit';
import { allRoutes } from '../modules';

const shared = exportedSchemas([contracts]);

describe('request contracts', () => {
  it('finds the contracts the routes use', () => {
    expect(shared.size).toBeGreaterThan(50);
  });

  it('every route takes its body, query and params schemas from shared/api/contracts', () => {
    expect(ownRequestSchemas(allRoutes, shared)).toEqual([]);
  });
});
