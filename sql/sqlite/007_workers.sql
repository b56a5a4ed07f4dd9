-- Several harvest processes on one database: each registers here and beats its heart while it
-- runs (renewing its leases), so `anwc stats` can list the live ones and a dead one's links come
-- back within a lease. score_at says when a domain's score last moved, so each process's wheel
-- reads only the scores the others changed since it last looked.
CREATE TABLE workers (
  owner        TEXT PRIMARY KEY,
  started_at   INTEGER NOT NULL,
  heartbeat_at INTEGER NOT NULL,
  pages        INTEGER NOT NULL DEFAULT 0,
  stopped_at   INTEGER
);
ALTER TABLE domains ADD COLUMN score_at INTEGER;
CREATE INDEX domains_score_at ON domains (score_at);
