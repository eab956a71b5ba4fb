-- 013: the findings a closed period's lots pass made — lots.basis_unknown and
-- lots.identification_late, each with its wallet, ledger ref, units and message — as it made them,
-- so a re-run of the closed month and `payexport report` show the findings its close showed
-- (docs/lots.md "Closed periods"). A relief line of unknown basis does not say which note made it
-- (an acquisition's unknown lot, or a disposal beyond the lots held), so they cannot be derived from
-- the other tables. `notes_recorded` tells a period recorded with its notes (none, perhaps) from
-- one recorded before this migration, whose notes are still derived from its relief lines and lots.

ALTER TABLE lot_periods ADD COLUMN notes_recorded boolean NOT NULL DEFAULT false;

CREATE TABLE lot_period_notes (
  organization_id text COLLATE "C" NOT NULL,
  period          text COLLATE "C" NOT NULL,
  status          text NOT NULL,
  line_no         integer NOT NULL,
  code            text NOT NULL,
  wallet_id       text COLLATE "C" NOT NULL,
  currency        text COLLATE "C" NOT NULL,
  ref             text COLLATE "C" NOT NULL,
  units_base      numeric(39,0) NOT NULL,
  message         text NOT NULL,
  PRIMARY KEY (organization_id, period, status, line_no),
  FOREIGN KEY (organization_id, period, status) REFERENCES lot_periods (organization_id, period, status) ON DELETE CASCADE ON UPDATE CASCADE
);
