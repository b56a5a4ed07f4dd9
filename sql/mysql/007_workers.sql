-- Several harvest processes on one database: each registers here and beats its heart while it
-- runs (renewing its leases), so `anwc stats` can list the live ones and a dead one's links come
-- back within a lease. score_at says when a domain's score last moved, so each process's wheel
-- reads only the scores the others changed since it last looked.
CREATE TABLE IF NOT EXISTS workers (
  owner        VARCHAR(191) NOT NULL PRIMARY KEY,
  started_at   BIGINT NOT NULL,
  heartbeat_at BIGINT NOT NULL,
  pages        INT UNSIGNED NOT NULL DEFAULT 0,
  stopped_at   BIGINT
) ENGINE=InnoDB;
ALTER TABLE domains ADD COLUMN IF NOT EXISTS score_at BIGINT;
CREATE INDEX IF NOT EXISTS domains_score_at ON domains (score_at);
