-- 003: the webhook listener's inbox (docs/listener.md). A verified delivery is committed here
-- before the listener answers 2xx; a worker then upserts its payment into the snapshot. The raw
-- body is kept as received (it holds a Payment, never a secret; signatures are not stored).

CREATE TABLE webhook_inbox (
  inbox_id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  received_at    timestamptz NOT NULL DEFAULT now(),
  webhook_id     text COLLATE "C" NOT NULL,
  -- the x-voltage-timestamp the delivery was signed with (unix seconds)
  signed_at      bigint NOT NULL,
  body_sha256    text COLLATE "C" NOT NULL,
  -- payment id + event + status + updated_at when the body names them, else the body's sha256:
  -- a redelivery of the same change is one row, whatever its timestamp or byte layout
  dedupe_key     text COLLATE "C" NOT NULL UNIQUE,
  kind           text NOT NULL,
  event          text,
  payment_id     text COLLATE "C",
  environment_id text COLLATE "C",
  body           text NOT NULL,
  attempts       integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error     text,
  processed_at   timestamptz,
  -- applied | stale (an older change than the snapshot's) | ignored (test event) | not_found | unusable
  outcome        text
);
-- The worker's queue: unprocessed rows in arrival order.
CREATE INDEX webhook_inbox_pending ON webhook_inbox (next_attempt_at, inbox_id) WHERE processed_at IS NULL;
