-- The frontier's indexes hold only the links each one finds (issue: speed). They led with every
-- link's status, so a link's way from pending to leased to done moved its entry in all three, each
-- to a page of its own, and a harvest's commits spent a fifth of what they wrote to the log on
-- them (bench crawl's web, 10,020 pages: 570 MB written, 460 MB with these). A pending link now sits in
-- the two queues a claim reads, a leased one in the leases, a failed or excluded one in the index
-- that a retry or `anwc stats` reads (one each: SQLite takes a partial index only for a query that
-- names its very condition); a link done leaves them all.
DROP INDEX IF EXISTS links_frontier;
DROP INDEX IF EXISTS links_priority;
DROP INDEX IF EXISTS links_leases;
DROP INDEX IF EXISTS links_failed;
DROP INDEX IF EXISTS links_excluded;
CREATE INDEX links_frontier ON links (domain_id, id) WHERE status = 'pending';
CREATE INDEX links_priority ON links (domain_id, priority DESC, id) WHERE status = 'pending';
CREATE INDEX links_leases ON links (domain_id, lease_expires_at) WHERE status = 'leased';
CREATE INDEX links_failed ON links (status) WHERE status = 'failed';
CREATE INDEX links_excluded ON links (outcome_kind) WHERE status = 'excluded';
