-- Transient failures go back to the frontier: how many times a link was tried, and the earliest
-- time it may be leased again (Retry-After, or backoff with jitter). NULL means at once.
-- IF NOT EXISTS: MySQL commits DDL at once, so a migration cut short must run again in full.
ALTER TABLE links ADD COLUMN IF NOT EXISTS attempts INT NOT NULL DEFAULT 0;
ALTER TABLE links ADD COLUMN IF NOT EXISTS not_before BIGINT NULL;
