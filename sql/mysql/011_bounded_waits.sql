-- A wait a server asked for is bounded since this version (Retry-After at most 10 minutes,
-- src/web/retry-after.ts). A link or host an earlier anwc parked past that bound (Retry-After:
-- 999999999 parked one until 2058, and a larger one wrote a time no date can show) is due at the
-- bound from now instead, so a rerun neither waits for it for ever nor fails to print it.
UPDATE links SET not_before = UNIX_TIMESTAMP() * 1000 + 600000 WHERE not_before > UNIX_TIMESTAMP() * 1000 + 600000;
UPDATE domains SET next_fetch_at = UNIX_TIMESTAMP() * 1000 + 600000 WHERE next_fetch_at > UNIX_TIMESTAMP() * 1000 + 600000;
