-- One migration, both stores (server/core/db/migrate.ts): the SQLite section (bench and central), then the PostgreSQL one (central).
-- dialect: sqlite
-- Bench: a leased block held in reserve (the bench's overflow range of a series). Numbers are issued
-- from it only once the regular blocks of the series are spent, e.g. while central is unreachable.
ALTER TABLE lease_blocks ADD COLUMN overflow INTEGER NOT NULL DEFAULT 0;

-- dialect: postgres
-- Nothing on PostgreSQL: it serves central only, which leases no number blocks (no lease_blocks table).
