-- Best-first walks: a link's priority within its domain (higher first), set when it is found.
ALTER TABLE links ADD COLUMN IF NOT EXISTS priority DOUBLE NOT NULL DEFAULT 0;
CREATE INDEX IF NOT EXISTS links_priority ON links (domain_id, status, priority, id);
