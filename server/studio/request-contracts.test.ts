import { describe, expect, it } from 'vitest';
import { contractModules, exportedSchemas, ownRequestSchemas } from '../core/testing/request-contracts.testkit';
import { studioRoutes } from './app';

describe('request contracts (Publishing Studio)', () => {
  it('every route takes its body, query and params schemas from shared/api/contracts/studio*.ts', async () => {
    const shared = exportedSchemas(await contractModules(['studio']));
    expect(studioRoutes.filter((r) => r.body || r.query || r.params).length).toBeGreaterThan(5);
    expect(ownRequestSchemas(studioRoutes, shared)).toEqual([]);
  });
});
