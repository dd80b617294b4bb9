import type { FaultCounts } from './sim-transport.testkit';

/** What a simulation run is given and what it answers. */
export interface SimOptions {
  /** Unenrolled benches and central issue sequential numbers too (renumbered at enrolment). */
  numbersBeforeEnrol?: boolean;
  /** Virtual start time (default 2026-11-22 in Japan). */
  start?: number;
  /** Central is unreachable from `from` to `to` (virtual time), e.g. across midnight of Dec 31. */
  outage?: { from: number; to: number };
  /** A hostile bench joins: oversized leases, poisoned clocks, numbers outside its lease. */
  hostile?: boolean;
}

export interface SimReport {
  seed: number;
  ops: number;
  committed: number;
  refused503: number;
  crashes: number;
  cycles: number;
  /** Numbers issued before enrolment that moved to a range central reserved. */
  renumbered: number;
  /** Compactions of central's log, and those that passed a bench's pull cursor. */
  compactions: { runs: number; pastABench: number };
  /** Numbers benches issued from their reserve (their blocks were spent). */
  overflowIssued: number;
  /** Numbers issued per counter (erz:2026, invoice:2701, …), by benches and central. */
  counters: Record<string, number>;
  /** Numbers enrolled benches issued per counter while central was unreachable. */
  offline: Record<string, number>;
  faults: FaultCounts;
  /** The hostile bench's requests central refused and accepted (with `hostile`). */
  hostile?: { refused: number; accepted: number };
  problems: string[];
}
