-- 002: the requested amount and quote of a payment, and normalization flags on assets and
-- summary buckets (normalize/ reports every quirk met; these two tables did not keep them yet).

ALTER TABLE payments ADD COLUMN requested_amount_base numeric(39,0);
ALTER TABLE payments ADD COLUMN quote_id text COLLATE "C";
ALTER TABLE payments ADD COLUMN quote_principal_base numeric(39,0);

ALTER TABLE assets ADD COLUMN flags text[] NOT NULL DEFAULT '{}';
ALTER TABLE summary_buckets ADD COLUMN flags text[] NOT NULL DEFAULT '{}';
