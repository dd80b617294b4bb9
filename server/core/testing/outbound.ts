/**
 * Old path of outbound.testkit.ts, kept only for server/studio's tests (rewritten in a parallel branch).
 * Remove once they import '../core/testing/outbound.testkit' (listed in server/import-graph.test.ts as pending).
 */
export * from './outbound.testkit';
