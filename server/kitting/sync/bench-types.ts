/** The bench's sync types: its enrolment, status and options (bench.ts). */
import type { LeaseLevel } from '../store/types';
import type { SeriesRegistry } from '../store/series';
import type { Transport } from './protocol';

/** What a bench keeps in its database once enrolled (with the first blocks of every series, in one transaction). */
export interface Enrolment {
  central: string;
  token: string;
  bench: string;
  workspace: string;
}

export interface SyncStatus {
  enrolled: boolean;
  central: string | null;
  bench: string;
  workspace: string | null;
  pending: number;
  lastPush: string | null;
  lastPull: string | null;
  lastError: string | null;
  leases: LeaseLevel[];
}

export interface SyncBenchOptions {
  /** Folder of the enrolment file (the bench's data folder). */
  dataDir: string;
  transport: (central: string) => Transport;
  /** Called when the bench's workspace becomes the central one. */
  onWorkspace?: (ws: string) => void;
  blockSize?: number;
  /** Pause between cycles while all is well, and the longest backoff while central is unreachable. */
  intervalMs?: number;
  maxBackoffMs?: number;
  log?: (line: string) => void;
  /** Overridable clock for JST periods of series names (simulation). */
  now?: () => number;
  /** Called inside each pulled page's transaction before commit (simulation: crash mid-apply). */
  beforeApplyCommit?: () => void;
  /** Page sizes (smaller in the simulation to exercise paging). */
  pages?: { push?: number; pull?: number; snapshot?: number };
  /** The numbered series the bench holds blocks of (default: those the modules declare). */
  series?: SeriesRegistry;
}
