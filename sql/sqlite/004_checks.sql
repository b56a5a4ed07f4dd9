-- Revalidation: a crawler node whose source page is gone or no longer holds its text is kept but
-- marked, so that the engine does not show it without the author knowing.
ALTER TABLE nodes ADD COLUMN status TEXT NOT NULL DEFAULT 'ok' CHECK (status IN ('ok', 'changed', 'gone'));
ALTER TABLE nodes ADD COLUMN checked_at INTEGER;
CREATE INDEX nodes_source ON nodes (source_url);

-- What the last check of a URL found, per scope (a maintenance task's name, or "nodes" for the
-- sources of crawler nodes): the next run says what changed since, and asks with its validators.
CREATE TABLE url_checks (
  scope         TEXT NOT NULL,
  url           TEXT NOT NULL,
  state         TEXT NOT NULL,
  status        INTEGER,
  detail        TEXT,
  etag          TEXT,
  last_modified TEXT,
  checked_at    INTEGER NOT NULL,
  PRIMARY KEY (scope, url)
);
