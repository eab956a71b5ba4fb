-- 014: whether an exported entry was posted as a late movement of a closed month, so every later
-- run lists it in the series it was numbered in (JE-YYYY-MM-LNNNNN, docs/journal.md "Entry
-- numbers"): a re-run that found it exported numbered it in the period's series, renumbering the
-- month's entries after it and amending the closed month for nothing. False for every entry
-- exported before this column existed.

ALTER TABLE journal_entries ADD COLUMN late boolean NOT NULL DEFAULT false;
