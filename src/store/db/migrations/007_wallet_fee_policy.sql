-- 007: the wallet's processing-fee policy as read from GET …/wallets/{id}/policies (endpoint 8):
-- {"send_bps", "receive_bps", "updated_at"}, or null when the wallet has none or it was not read.
-- The service shows the current rates only; the fee-rate history uses them as evidence of the
-- rate in force at the end of the pulled data (docs/reconciliation.md "Fee-rate history").

ALTER TABLE wallets ADD COLUMN fee_policy jsonb;
