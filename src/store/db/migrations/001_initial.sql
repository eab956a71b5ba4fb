-- payexport snapshot schema, version 1. Runs with search_path set to the target schema
-- (src/store/migrate.ts), so names are unqualified. PostgreSQL 15 through 18.
--
-- Conventions: amounts in base units (msats, cents, asset base units) as numeric(39,0);
-- instants as timestamptz (microseconds, like the API); identifiers as text in the "C" collation
-- (byte order: the same order as the files, on every server locale); raw API objects as jsonb
-- with integers beyond 2^53 kept exact. Text never contains U+0000: see docs/database.md.

CREATE TABLE runs (
  run_id          text COLLATE "C" PRIMARY KEY,
  run_key         text COLLATE "C" NOT NULL,
  command         text NOT NULL,
  organization_id text COLLATE "C" NOT NULL,
  window_from     timestamptz,
  window_to       timestamptz,
  window_tz       text,
  parameters      jsonb NOT NULL DEFAULT '{}',
  started_at      timestamptz NOT NULL,
  finished_at     timestamptz,
  status          text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'succeeded', 'exceptions', 'failed')),
  counts          jsonb
);
CREATE INDEX runs_by_command ON runs (organization_id, command, started_at DESC);
CREATE INDEX runs_by_window ON runs (organization_id, window_from, window_to, started_at DESC);

CREATE TABLE wallets (
  organization_id   text COLLATE "C" NOT NULL,
  wallet_id         text COLLATE "C" NOT NULL,
  environment_id    text COLLATE "C" NOT NULL,
  name              text NOT NULL,
  active            boolean NOT NULL,
  network           text NOT NULL,
  line_of_credit_id text COLLATE "C",
  limit_base        numeric(39,0),
  created_at        timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL,
  deleted_at        timestamptz,
  metadata          jsonb,
  flags             text[] NOT NULL,
  raw               jsonb,
  first_run_id      text COLLATE "C",
  first_seen_at     timestamptz NOT NULL DEFAULT now(),
  last_run_id       text COLLATE "C",
  last_changed_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, wallet_id)
);

CREATE TABLE wallet_balances (
  organization_id text COLLATE "C" NOT NULL,
  wallet_id       text COLLATE "C" NOT NULL,
  currency        text COLLATE "C" NOT NULL,
  position        integer NOT NULL,
  unit            text NOT NULL,
  available_base  numeric(39,0) NOT NULL,
  total_base      numeric(39,0) NOT NULL,
  effective_time  timestamptz NOT NULL,
  PRIMARY KEY (organization_id, wallet_id, currency),
  FOREIGN KEY (organization_id, wallet_id) REFERENCES wallets ON DELETE CASCADE
);

CREATE TABLE assets (
  currency        text COLLATE "C" PRIMARY KEY,
  asset_id        text NOT NULL,
  name            text NOT NULL,
  network         text NOT NULL,
  decimal_display integer NOT NULL,
  first_run_id    text COLLATE "C",
  first_seen_at   timestamptz NOT NULL DEFAULT now(),
  last_run_id     text COLLATE "C",
  last_changed_at timestamptz NOT NULL DEFAULT now()
);

-- The current state of every payment ever seen. One row per payment; history is below.
CREATE TABLE payments (
  payment_id                  text COLLATE "C" NOT NULL,
  organization_id             text COLLATE "C" NOT NULL,
  environment_id              text COLLATE "C" NOT NULL,
  wallet_id                   text COLLATE "C" NOT NULL,
  direction                   text NOT NULL,
  kind                        text NOT NULL,
  category                    text NOT NULL,
  route                       text,
  status                      text NOT NULL,
  status_class                text NOT NULL,
  created_at                  timestamptz NOT NULL,
  updated_at                  timestamptz NOT NULL,
  currency                    text NOT NULL,
  unit                        text NOT NULL,
  principal_base              numeric(39,0),
  network_fee_base            numeric(39,0),
  processing_fee_base         numeric(39,0),
  processing_fee_source       text NOT NULL,
  processing_fee_bps          numeric,
  processing_fee_terms_base   numeric(39,0),
  processing_fee_settled_base numeric(39,0),
  processing_fee_diff_base    numeric(39,0),
  total_base                  numeric(39,0),
  max_fee_base                numeric(39,0),
  reported_fees_base          numeric(39,0),
  quote_rate                  text,
  quote_from                  text,
  quote_to                    text,
  rail_currency               text,
  rail_amount_base            numeric(39,0),
  rail_fee_base               numeric(39,0),
  ledger_ids                  text[] NOT NULL,
  tx_ids                      text[] NOT NULL,
  payment_hashes              text[] NOT NULL,
  swap_steps                  text[] NOT NULL,
  offset_payment_ids          text[] NOT NULL,
  error_type                  text,
  error_code                  text,
  error_detail                text,
  description                 text,
  metadata                    jsonb,
  flags                       text[] NOT NULL,
  raw                         jsonb,
  -- digest of the stored columns, so a re-read is compared without sending the row again
  row_hash                    text NOT NULL,
  first_run_id                text COLLATE "C",
  first_seen_at               timestamptz NOT NULL DEFAULT now(),
  last_run_id                 text COLLATE "C",
  last_changed_at             timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, payment_id)
);
-- Reports read one wallet's payments of a window in (created_at, payment_id) order. Wallet ids
-- are UUIDs, so the organization (checked on the row) is left out of this index: narrower keys
-- make every load cheaper.
CREATE INDEX payments_by_wallet_created ON payments (wallet_id, created_at, payment_id);
-- Nightly re-reads of payments that were not terminal yet.
CREATE INDEX payments_open ON payments (organization_id, wallet_id, created_at) WHERE status_class IN ('open', 'unknown');

-- One row per observed change of a payment's status, amounts or fees ("first_seen" for the
-- first observation). A re-read that changes nothing adds nothing.
CREATE TABLE payment_history (
  history_id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id             text COLLATE "C" NOT NULL,
  payment_id                  text COLLATE "C" NOT NULL,
  run_id                      text COLLATE "C",
  observed_at                 timestamptz NOT NULL DEFAULT now(),
  change                      text NOT NULL CHECK (change IN ('first_seen', 'changed')),
  changed_fields              text[] NOT NULL,
  previous_status             text,
  status                      text NOT NULL,
  status_class                text NOT NULL,
  updated_at                  timestamptz NOT NULL,
  currency                    text NOT NULL,
  principal_base              numeric(39,0),
  network_fee_base            numeric(39,0),
  processing_fee_base         numeric(39,0),
  processing_fee_source       text NOT NULL,
  processing_fee_bps          numeric,
  processing_fee_terms_base   numeric(39,0),
  processing_fee_settled_base numeric(39,0),
  processing_fee_diff_base    numeric(39,0),
  total_base                  numeric(39,0),
  max_fee_base                numeric(39,0),
  reported_fees_base          numeric(39,0),
  rail_amount_base            numeric(39,0),
  rail_fee_base               numeric(39,0)
);
CREATE INDEX payment_history_by_payment ON payment_history (payment_id, history_id);
CREATE INDEX payment_history_by_run ON payment_history (run_id);

CREATE TABLE ledger_entries (
  entry_id            text COLLATE "C" NOT NULL,
  entry_type          text COLLATE "C" NOT NULL,
  wallet_id           text COLLATE "C" NOT NULL,
  environment_id      text COLLATE "C" NOT NULL,
  organization_id     text COLLATE "C" NOT NULL,
  payment_id          text COLLATE "C",
  effective_time      timestamptz NOT NULL,
  currency            text NOT NULL,
  unit                text NOT NULL,
  amount_base         numeric(39,0),
  effect              text NOT NULL,
  balance_effect_base numeric(39,0) NOT NULL,
  principal_base      numeric(39,0),
  network_fee_base    numeric(39,0),
  processing_fee_base numeric(39,0),
  processing_fee_bps  numeric,
  flags               text[] NOT NULL,
  raw                 jsonb,
  row_hash            text NOT NULL,
  first_run_id        text COLLATE "C",
  first_seen_at       timestamptz NOT NULL DEFAULT now(),
  last_run_id         text COLLATE "C",
  last_changed_at     timestamptz NOT NULL DEFAULT now(),
  -- a hold id appears as held, captured and released: the type is part of the key
  PRIMARY KEY (organization_id, wallet_id, entry_type, entry_id)
);
CREATE INDEX ledger_by_wallet_time ON ledger_entries (wallet_id, effective_time, entry_type, entry_id);
CREATE INDEX ledger_by_payment ON ledger_entries (organization_id, payment_id) WHERE payment_id IS NOT NULL;

-- The service's own counts (payment summary endpoints), per run: a later run never rewrites
-- what an earlier one saw.
CREATE TABLE summary_buckets (
  summary_id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  run_id            text COLLATE "C" NOT NULL REFERENCES runs ON DELETE CASCADE,
  scope             text NOT NULL,
  scope_id          text COLLATE "C" NOT NULL,
  environment_id    text COLLATE "C" NOT NULL,
  direction         text,
  status            text,
  currency          text,
  kind              text,
  api_count         numeric(39,0) NOT NULL,
  oldest_created_at timestamptz,
  newest_created_at timestamptz
);
CREATE INDEX summary_buckets_by_run ON summary_buckets (run_id, environment_id);

CREATE TABLE findings (
  finding_id   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  run_id       text COLLATE "C" NOT NULL REFERENCES runs ON DELETE CASCADE,
  check_id     text NOT NULL,
  severity     text NOT NULL,
  subject_kind text NOT NULL,
  subject_id   text NOT NULL,
  wallet_id    text COLLATE "C",
  currency     text,
  expected     text,
  actual       text,
  difference   text,
  message      text NOT NULL
);
CREATE INDEX findings_by_run ON findings (run_id, finding_id);

-- Resume points: committed in the same transaction as the page they follow.
CREATE TABLE checkpoints (
  run_key    text COLLATE "C" NOT NULL,
  stream     text COLLATE "C" NOT NULL,
  position   text NOT NULL,
  pages      integer NOT NULL,
  rows       bigint NOT NULL,
  done       boolean NOT NULL,
  run_id     text COLLATE "C",
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (run_key, stream)
);

-- Closed accounting periods: their published reports are never overwritten.
CREATE TABLE closed_periods (
  organization_id text COLLATE "C" NOT NULL,
  period          text COLLATE "C" NOT NULL,
  tz              text NOT NULL,
  window_from     timestamptz,
  window_to       timestamptz,
  run_id          text COLLATE "C",
  closed_at       timestamptz NOT NULL,
  note            text,
  PRIMARY KEY (organization_id, period)
);
