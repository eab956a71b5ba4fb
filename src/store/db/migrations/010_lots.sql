-- 010: the crypto subledger's record of a closed period (docs/lots.md "Closed periods"). When
-- month-end closes a period its lots pass stages, as `pending`, the period's per-wallet figures,
-- the lots held at its end and its relief lines; once the folder is published and the period
-- closed they become `recorded`. A later run starts each wallet from the latest recorded closing
-- lots instead of recomputing the history, and an amended folder of the period shows the record.
-- Instants are kept as the text the engine uses (so a re-run writes the same bytes); amounts are
-- integers: base units, and books minor units (cost is what the engine keeps, already rounded).

CREATE TABLE lot_periods (
  organization_id text COLLATE "C" NOT NULL,
  period          text COLLATE "C" NOT NULL,
  status          text NOT NULL CHECK (status IN ('pending', 'recorded')),
  run_id          text COLLATE "C" NOT NULL,
  window_from     text COLLATE "C" NOT NULL,
  window_to       text COLLATE "C" NOT NULL,
  recorded_at     timestamptz,
  PRIMARY KEY (organization_id, period, status)
);
CREATE INDEX lot_periods_by_run ON lot_periods (run_id, status);

CREATE TABLE lot_figures (
  organization_id  text COLLATE "C" NOT NULL,
  period           text COLLATE "C" NOT NULL,
  status           text NOT NULL,
  wallet_id        text COLLATE "C" NOT NULL,
  currency         text COLLATE "C" NOT NULL,
  opening_units    numeric(39,0) NOT NULL,
  opening_cost     numeric(39,0) NOT NULL,
  added_cost       numeric(39,0) NOT NULL,
  relieved_cost    numeric(39,0) NOT NULL,
  moved_out_cost   numeric(39,0) NOT NULL,
  additions        numeric(39,0),
  dispositions     numeric(39,0),
  transfers_net    numeric(39,0),
  realized_gain    numeric(39,0) NOT NULL,
  cumulative_gain  numeric(39,0) NOT NULL,
  PRIMARY KEY (organization_id, period, status, wallet_id, currency),
  FOREIGN KEY (organization_id, period, status) REFERENCES lot_periods (organization_id, period, status) ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE lot_closings (
  organization_id text COLLATE "C" NOT NULL,
  period          text COLLATE "C" NOT NULL,
  status          text NOT NULL,
  line_no         integer NOT NULL,
  lot_id          text COLLATE "C" NOT NULL,
  wallet_id       text COLLATE "C" NOT NULL,
  currency        text COLLATE "C" NOT NULL,
  acquired_at     text COLLATE "C" NOT NULL,
  origin          text NOT NULL,
  units_base      numeric(39,0) NOT NULL,
  cost            numeric(39,0),
  PRIMARY KEY (organization_id, period, status, line_no),
  FOREIGN KEY (organization_id, period, status) REFERENCES lot_periods (organization_id, period, status) ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE lot_period_reliefs (
  organization_id text COLLATE "C" NOT NULL,
  period          text COLLATE "C" NOT NULL,
  status          text NOT NULL,
  line_no         integer NOT NULL,
  wallet_id       text COLLATE "C" NOT NULL,
  currency        text COLLATE "C" NOT NULL,
  disposal_ref    text COLLATE "C" NOT NULL,
  disposal_part   text NOT NULL,
  disposed_at     text COLLATE "C" NOT NULL,
  lot_id          text COLLATE "C" NOT NULL,
  acquired_at     text COLLATE "C" NOT NULL,
  units_base      numeric(39,0) NOT NULL,
  proceeds        numeric(39,0),
  cost            numeric(39,0),
  gain            numeric(39,0),
  term            text NOT NULL,
  PRIMARY KEY (organization_id, period, status, line_no),
  FOREIGN KEY (organization_id, period, status) REFERENCES lot_periods (organization_id, period, status) ON DELETE CASCADE ON UPDATE CASCADE
);
