-- 011: a relief line of a late movement (effective in a recorded closed period that never saw it,
-- applied on the first open instant) keeps the period it belongs to (docs/lots.md "Closed periods").
-- Null for an ordinary relief line, and for every line recorded before this column existed.

ALTER TABLE lot_period_reliefs ADD COLUMN late_from text;
