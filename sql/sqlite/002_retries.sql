-- Transient failures go back to the frontier: how many times a link was tried, and the earliest
-- time it may be leased again (Retry-After, or backoff with jitter). NULL means at once.
ALTER TABLE links ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE links ADD COLUMN not_before INTEGER;
