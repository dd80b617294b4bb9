-- The balance moves in the same transaction as its ledger entry, by the application: a charge is one
-- conditional UPDATE (balance >= cost) so concurrent spenders in any number of processes never overdraw.
-- dialect: sqlite
DROP TRIGGER credit_ledger_balance;
-- dialect: postgres
-- (PostgreSQL never had the trigger.)
SELECT 1;
