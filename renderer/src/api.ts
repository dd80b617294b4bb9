import { createApiClient, describeError } from '../../shared/api/client';

/** The bench/central web client (same origin, kit_tid cookie). */
export const api = createApiClient();
export { describeError };
