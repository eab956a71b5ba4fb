-- 003: the service's bills (OpenAPI tag Billing) — one row per bill with its current state, one row
-- per line item, a history row per observed change of a bill's status or amounts (as for payments),
-- and each run's bill summary per line of credit (the count the bill list must reach).

CREATE TABLE bills (
  bill_id             text COLLATE "C" NOT NULL,
  organization_id     text COLLATE "C" NOT NULL,
  line_of_credit_id   text COLLATE "C" NOT NULL,
  start_time          timestamptz NOT NULL,
  end_time            timestamptz NOT NULL,
  period_length       text NOT NULL,
  status              text NOT NULL,
  settlement_type     text NOT NULL,
  currency            text NOT NULL,
  unit                text NOT NULL,
  amt_due_base        numeric(39,0),
  amt_paid_base       numeric(39,0),
  service_fee_base    numeric(39,0),
  settlement_fee_base numeric(39,0),
  wallet_ids          text[] NOT NULL,
  created_at          timestamptz NOT NULL,
  updated_at          timestamptz NOT NULL,
  due_date            timestamptz,
  flags               text[] NOT NULL,
  raw                 jsonb,
  first_run_id        text COLLATE "C",
  first_seen_at       timestamptz NOT NULL DEFAULT now(),
  last_run_id         text COLLATE "C",
  last_changed_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, bill_id)
);
-- Reports read the bills whose period overlaps their window.
CREATE INDEX bills_by_period ON bills (organization_id, start_time, end_time);

CREATE TABLE bill_history (
  history_id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id     text COLLATE "C" NOT NULL,
  bill_id             text COLLATE "C" NOT NULL,
  run_id              text COLLATE "C",
  observed_at         timestamptz NOT NULL DEFAULT now(),
  change              text NOT NULL CHECK (change IN ('first_seen', 'changed')),
  changed_fields      text[] NOT NULL,
  previous_status     text,
  status              text NOT NULL,
  updated_at          timestamptz NOT NULL,
  settlement_type     text NOT NULL,
  amt_due_base        numeric(39,0),
  amt_paid_base       numeric(39,0),
  service_fee_base    numeric(39,0),
  settlement_fee_base numeric(39,0)
);
CREATE INDEX bill_history_by_bill ON bill_history (bill_id, history_id);

CREATE TABLE bill_line_items (
  organization_id              text COLLATE "C" NOT NULL,
  bill_id                      text COLLATE "C" NOT NULL,
  position                     integer NOT NULL,
  wallet_id                    text COLLATE "C" NOT NULL,
  currency                     text NOT NULL,
  unit                         text NOT NULL,
  starting_balance_base        numeric(39,0),
  amount_total_base            numeric(39,0),
  settlement_type              text NOT NULL,
  transactions_sent            numeric(39,0),
  amount_sent_base             numeric(39,0),
  transactions_received        numeric(39,0),
  amount_received_base         numeric(39,0),
  processing_fee_total_base    numeric(39,0),
  processing_fee_send_base     numeric(39,0),
  processing_fee_receive_base  numeric(39,0),
  has_payment_activity         boolean NOT NULL,
  standard_send_count          numeric(39,0),
  standard_send_volume_base    numeric(39,0),
  standard_receive_count       numeric(39,0),
  standard_receive_volume_base numeric(39,0),
  treasury_send_count          numeric(39,0),
  treasury_send_volume_base    numeric(39,0),
  treasury_receive_count       numeric(39,0),
  treasury_receive_volume_base numeric(39,0),
  volume_fee_base              numeric(39,0),
  interest_fee_base            numeric(39,0),
  payout_holdback_base         numeric(39,0),
  flags                        text[] NOT NULL,
  PRIMARY KEY (organization_id, bill_id, position)
);

CREATE TABLE bill_summaries (
  run_id            text COLLATE "C" NOT NULL,
  organization_id   text COLLATE "C" NOT NULL,
  line_of_credit_id text COLLATE "C" NOT NULL,
  bill_total_count  numeric(39,0),
  listed_count      integer,
  total_due_base    jsonb NOT NULL,
  flags             text[] NOT NULL,
  raw               jsonb,
  PRIMARY KEY (run_id, line_of_credit_id)
);
