/**
 * The snapshot's record of the crypto subledger's closed periods, as a port (tables lot_periods,
 * lot_figures, lot_closings and lot_period_reliefs, migration 010; its findings in
 * lot_period_notes, migration 013; the 1 January 2025 allocation it used in lot_period_allocations,
 * migration 015; docs/lots.md "Closed periods"). The subledger (src/lots/)
 * stages what a closing month-end computed; the pipeline confirms it once the folder is published and the period closed. A later run starts from the
 * latest recorded closing lots; an amended folder of a recorded period shows the record. The
 * store implements it in SQL (src/store/sql/lots-record.ts); the spool of `--no-db` has none, as
 * it has no journal record: without a snapshot every run recomputes from the history it pulled.
 *
 * Field names mirror src/lots/model.ts (`Lot`, `ReliefLine`) and src/lots/period-run.ts
 * (`WalletFigures`), which the model layer may not import.
 */

export interface RecordedLot {
  lotId: string;
  walletId: string;
  currency: string;
  acquiredAt: string;
  origin: string;
  units: bigint;
  /** books minor units, as the engine keeps it; null = unknown basis */
  cost: bigint | null;
}

export interface RecordedRelief {
  walletId: string;
  currency: string;
  disposalRef: string;
  part: string;
  disposedAt: string;
  lotId: string;
  acquiredAt: string;
  units: bigint;
  proceeds: bigint | null;
  cost: bigint | null;
  gain: bigint | null;
  term: string;
  /** the closed period a late disposal was effective in (lot_period_reliefs.late_from, migration 011) */
  lateFrom?: string;
}

export interface RecordedFigures {
  walletId: string;
  currency: string;
  openingUnits: bigint;
  openingCost: bigint;
  addedCost: bigint;
  relievedCost: bigint;
  movedOutCost: bigint;
  /** journal values of the window's movements; null when one needs a price */
  additions: bigint | null;
  dispositions: bigint | null;
  transfersNet: bigint | null;
  realizedGain: bigint;
  cumulativeRealizedGain: bigint;
  /** the window's unit flows in base units (migration 012); absent for a period recorded before them */
  unitFlows?: { acquired: bigint; disposed: bigint; transferredIn: bigint; transferredOut: bigint };
}

/** A finding of the period's lots pass as it was made (src/lots/subledger.ts `LotNote`): lots.basis_unknown or lots.identification_late. */
export interface RecordedNote {
  code: string;
  walletId: string;
  currency: string;
  ref: string;
  units: bigint;
  message: string;
}

/** A row of the 1 January 2025 allocation as the close used it (src/lots/model.ts `OpeningLot`). */
export interface RecordedAllocationLot {
  walletId: string;
  currency: string;
  acquiredAt: string;
  units: bigint;
  /** books minor units; null = unknown basis */
  cost: bigint | null;
  /** the deposit (`deposited:<id>`) that later brought units held elsewhere; null = an opening balance */
  ref: string | null;
}

/**
 * The Rev. Proc. 2024-28 allocation a period's run used (docs/tax.md "The 1 January 2025
 * allocation"): irrevocable (section 4.02(6)), so a re-run of the period and the periods seeded from
 * it keep it, whatever the opening-lots file says since.
 */
export interface RecordedAllocation {
  /** the opening-lots file's name, as the statement cites it; null: the run had none and wrote no statement */
  file: string | null;
  /** the file's rows acquired on or before 31 December 2024 on the books' calendar, in the statement's order */
  lots: RecordedAllocationLot[];
  /** the run's tax.allocation_changed check: null when it did not run, else the warning it made (null: none) */
  check: { warning: string | null } | null;
}

export interface LotPeriodRecord {
  period: string;
  windowFrom: string;
  windowTo: string;
  /** the run that closed the period and recorded it (read back; a staged record need not carry it) */
  runId?: string;
  figures: RecordedFigures[];
  lots: RecordedLot[];
  reliefs: RecordedRelief[];
  /** the lots pass's findings (migration 013); absent for a period recorded before them */
  notes?: RecordedNote[];
  /** the 1 January 2025 allocation the run used (migration 015); absent for a period recorded before it */
  allocation?: RecordedAllocation;
}

/** A recorded period's window and figures, without its lots and reliefs (what the cumulative tie-out and the pull need). */
export interface RecordedPeriodFigures {
  period: string;
  windowFrom: string;
  windowTo: string;
  figures: RecordedFigures[];
}

export interface LotsRecord {
  /** drops pending rows a failed run left for the organization */
  clearPending(organizationId: string): Promise<void>;
  /** records a period's figures, closing lots and relief lines as pending for this run */
  stage(organizationId: string, runId: string, record: LotPeriodRecord): Promise<void>;
  /** the run's pending period becomes recorded (replacing an earlier record of it); returns how many periods */
  confirm(runId: string): Promise<number>;
  /** the recorded period of this label, or null */
  period(organizationId: string, period: string): Promise<LotPeriodRecord | null>;
  /** the recorded period with the latest end at or before `at` (its closing lots, cumulative gains and allocation; no reliefs), or null */
  latestEndingBy(organizationId: string, at: string): Promise<LotPeriodRecord | null>;
  /** every recorded period ending at or before `at`, oldest first, with its figures only */
  periodsEndingBy(organizationId: string, at: string): Promise<RecordedPeriodFigures[]>;
}
