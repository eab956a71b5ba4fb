-- 009: what became of each report folder at each delivery destination (SFTP, S3, a mounted share),
-- one row per run, destination and folder; `payexport deliver` retrying a folder writes its own run's
-- row. No credential is ever stored: `remote` is a URL without one, `detail` passed the scrubber.

CREATE TABLE deliveries (
  run_id       text COLLATE "C" NOT NULL,
  destination  text COLLATE "C" NOT NULL,
  kind         text NOT NULL,
  report       text COLLATE "C" NOT NULL,
  remote       text NOT NULL,
  outcome      text NOT NULL CHECK (outcome IN ('delivered', 'unchanged', 'failed')),
  files_sent   integer NOT NULL,
  bytes_sent   bigint NOT NULL,
  attempts     integer NOT NULL,
  detail       text NOT NULL,
  duration_ms  integer NOT NULL,
  recorded_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (run_id, destination, report)
);
