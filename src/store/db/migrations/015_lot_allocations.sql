-- 015: the 1 January 2025 allocation a closed period's run used (Rev. Proc. 2024-28, section 5; the
-- opening-lots file's rows acquired on or before 31 December 2024, docs/tax.md "The 1 January 2025
-- allocation"). The allocation is irrevocable (section 4.02(6)): a re-run of the closed month writes
-- rev-proc-2024-28-allocation.csv from these rows, and a later month seeded from the close carries
-- them forward, whatever the file says since. `allocation_recorded` tells a period recorded with its
-- allocation (no rows, perhaps) from one recorded before this migration, which falls back to the
-- file. `allocation_file`: the name of the opening-lots file the statement cites (null: the close had
-- none and wrote no statement). `allocation_checked` and `allocation_changed`: the close's
-- tax.allocation_changed check — whether it ran, and the warning it made (null: none) — so a re-run
-- shows what the close showed.

ALTER TABLE lot_periods ADD COLUMN allocation_recorded boolean NOT NULL DEFAULT false;
ALTER TABLE lot_periods ADD COLUMN allocation_file text;
ALTER TABLE lot_periods ADD COLUMN allocation_checked boolean NOT NULL DEFAULT false;
ALTER TABLE lot_periods ADD COLUMN allocation_changed text;

CREATE TABLE lot_period_allocations (
  organization_id text COLLATE "C" NOT NULL,
  period          text COLLATE "C" NOT NULL,
  status          text NOT NULL,
  line_no         integer NOT NULL,
  wallet_id       text COLLATE "C" NOT NULL,
  currency        text COLLATE "C" NOT NULL,
  units_base      numeric(39,0) NOT NULL,
  cost            numeric(39,0),
  acquired_at     text COLLATE "C" NOT NULL,
  ref             text COLLATE "C",
  PRIMARY KEY (organization_id, period, status, line_no),
  FOREIGN KEY (organization_id, period, status) REFERENCES lot_periods (organization_id, period, status) ON DELETE CASCADE ON UPDATE CASCADE
);
