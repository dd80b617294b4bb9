/**
 * Old path of request-contracts.testkit.ts, kept only for server/studio's tests (rewritten in a parallel branch).
 * Remove once they import '../core/testing/request-contracts.testkit' (listed in server/import-graph.test.ts as pending).
 */
export * from './request-contracts.testkit';
