-- 003: journal entries already exported for a period that is (being) closed, and their lines
-- (docs/journal.md "Closed periods"). A run that closes or amends a period stages its entries as
-- `pending`; once its report folder is published and the period closed they become `exported`,
-- replacing the entry's previous export. A later run compares against the exported rows: an entry
-- with the same content hash is not emitted again; one whose figures changed gets a reversal and
-- a replacement dated in the first open period.

CREATE TABLE journal_entries (
  organization_id text COLLATE "C" NOT NULL,
  entry_no        text COLLATE "C" NOT NULL,
  status          text NOT NULL CHECK (status IN ('pending', 'exported')),
  period          text NOT NULL,
  run_id          text COLLATE "C" NOT NULL,
  kind            text NOT NULL,
  entry_date      date NOT NULL,
  wallet_id       text COLLATE "C" NOT NULL,
  payment_id      text COLLATE "C",
  ledger_ref      text COLLATE "C",
  content_hash    text NOT NULL,
  corrections     integer NOT NULL DEFAULT 0,
  exported_at     timestamptz,
  PRIMARY KEY (organization_id, entry_no, status)
);
CREATE INDEX journal_entries_by_run ON journal_entries (run_id, status);

CREATE TABLE journal_lines (
  organization_id text COLLATE "C" NOT NULL,
  entry_no        text COLLATE "C" NOT NULL,
  status          text NOT NULL CHECK (status IN ('pending', 'exported')),
  line_no         integer NOT NULL,
  account         text NOT NULL,
  side            text NOT NULL CHECK (side IN ('debit', 'credit')),
  component       text NOT NULL,
  source_currency text,
  source_amount   numeric(39,0),
  source_unit     text,
  amount          numeric(39,0) NOT NULL,
  memo            text NOT NULL,
  PRIMARY KEY (organization_id, entry_no, status, line_no),
  FOREIGN KEY (organization_id, entry_no, status) REFERENCES journal_entries (organization_id, entry_no, status) ON DELETE CASCADE ON UPDATE CASCADE
);
