-- 003: what became of each run's notifications (webhook, Slack, e-mail, dead man's switch ping),
-- one row per destination and event. No foreign key to runs: a run refused before its own row was
-- written (bad credentials, a held lock) still sends, and records, its failure notice.

CREATE TABLE notifications (
  run_id       text COLLATE "C" NOT NULL,
  destination  text COLLATE "C" NOT NULL,
  kind         text NOT NULL,
  event        text NOT NULL,
  outcome      text NOT NULL CHECK (outcome IN ('delivered', 'failed')),
  attempts     integer NOT NULL,
  detail       text NOT NULL,
  duration_ms  integer NOT NULL,
  recorded_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (run_id, destination, event)
);
