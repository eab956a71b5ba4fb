-- 012: a closed period's unit flows per wallet and currency (acquired, disposed, transferred in and
-- out, in base units), so an amended folder of a closed month shows the units roll-forward its close
-- showed (docs/lots.md "Closed periods"). Null for every period recorded before these columns
-- existed: those derive their flows from the closing lots and relief lines.

ALTER TABLE lot_figures ADD COLUMN acquired_units numeric;
ALTER TABLE lot_figures ADD COLUMN disposed_units numeric;
ALTER TABLE lot_figures ADD COLUMN transferred_in_units numeric;
ALTER TABLE lot_figures ADD COLUMN transferred_out_units numeric;
