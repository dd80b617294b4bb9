-- Bench: a leased block held in reserve (the bench's overflow range of a series). Numbers are issued
-- from it only once the regular blocks of the series are spent, e.g. while central is unreachable.
ALTER TABLE lease_blocks ADD COLUMN overflow INTEGER NOT NULL DEFAULT 0;
