-- Best-first walks: a link's priority within its domain (higher first), set when it is found.
ALTER TABLE links ADD COLUMN priority REAL NOT NULL DEFAULT 0;
CREATE INDEX links_priority ON links (domain_id, status, priority DESC, id);
