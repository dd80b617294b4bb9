-- The balance kept beside the ledger, so reading it costs the same at any ledger length.
-- The ledger stays the record. (SQLite databases of this version derived the balance by a trigger;
-- 004 hands that to the application, which writes both in one transaction.)
CREATE TABLE credit_balances (
  workspace_id INTEGER PRIMARY KEY,
  balance INTEGER NOT NULL
);
INSERT INTO credit_balances (workspace_id, balance) SELECT workspace_id, SUM(amount) FROM credit_ledger GROUP BY workspace_id;
-- dialect: sqlite
CREATE TRIGGER credit_ledger_balance AFTER INSERT ON credit_ledger BEGIN
  INSERT INTO credit_balances (workspace_id, balance) VALUES (NEW.workspace_id, NEW.amount)
  ON CONFLICT (workspace_id) DO UPDATE SET balance = balance + NEW.amount;
END;
