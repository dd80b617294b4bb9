/**
 * Old path of process.testkit.ts, kept only for server/studio's tests (rewritten in a parallel branch).
 * Remove once they import '../core/testing/process.testkit' (listed in server/import-graph.test.ts as pending).
 */
export * from './process.testkit';
