-- Revalidation: a crawler node whose source page is gone or no longer holds its text is kept but
-- marked, so that the engine does not show it without the author knowing.
ALTER TABLE nodes ADD COLUMN IF NOT EXISTS status ENUM('ok', 'changed', 'gone') NOT NULL DEFAULT 'ok';
ALTER TABLE nodes ADD COLUMN IF NOT EXISTS checked_at BIGINT;
ALTER TABLE nodes ADD COLUMN IF NOT EXISTS source_hash CHAR(64) CHARACTER SET ascii AS (SHA2(source_url, 256)) STORED;
CREATE INDEX IF NOT EXISTS nodes_source ON nodes (source_hash);

-- What the last check of a URL found, per scope (a maintenance task's name, or "nodes" for the
-- sources of crawler nodes): the next run says what changed since, and asks with its validators.
CREATE TABLE IF NOT EXISTS url_checks (
  scope         VARCHAR(190) NOT NULL,
  url_hash      CHAR(64) CHARACTER SET ascii NOT NULL,
  url           TEXT NOT NULL,
  state         VARCHAR(16) NOT NULL,
  status        INT,
  detail        TEXT,
  etag          TEXT,
  last_modified VARCHAR(64),
  checked_at    BIGINT NOT NULL,
  PRIMARY KEY (scope, url_hash)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
