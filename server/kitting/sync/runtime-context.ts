import type { SyncBench } from './bench';
import type { SyncCentral } from './central';

/** The sync side of an app: the central endpoints in central mode, the bench client in bench mode. */
export interface SyncRuntime {
  central: SyncCentral | null;
  bench: SyncBench | null;
}

declare module '../context' {
  interface AppExtensions {
    /** Bench sync client or central sync endpoints (set by createApp). */
    sync?: SyncRuntime;
  }
}
