-- 008: a payment's raw API object is stored as the JSON text payexport wrote, not as jsonb. Parsing
-- ~1.3 KB of JSON into jsonb on every COPY was the largest single cost of a payment row on the
-- server (docs/benchmarks.md, "Snapshot cost per row"); text is stored as sent. The value is the
-- same JSON (integers above 2^53 exact, strings escaped as in docs/database.md); read it as jsonb
-- with `raw::jsonb`, or through the view below, which gives every payment's raw object as jsonb.
-- Existing rows keep their content: jsonb's text output is valid JSON of the same value, and
-- their row_hash (a digest of what was written, not of the stored spelling) stays valid.

ALTER TABLE payments ALTER COLUMN raw TYPE text USING raw::text;

CREATE VIEW payment_raw AS
  SELECT organization_id, payment_id, raw::jsonb AS raw FROM payments;
