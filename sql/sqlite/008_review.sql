-- The author's curation of foreign text (anwc serve): a node is unreviewed until approved or
-- rejected; a rejected node is never drawn. Every change an author makes (review, edited text,
-- meta words) is kept in node_audit with who made it and when.
ALTER TABLE nodes ADD COLUMN review TEXT NOT NULL DEFAULT 'unreviewed' CHECK (review IN ('unreviewed', 'approved', 'rejected'));

CREATE TABLE node_audit (
  id      INTEGER PRIMARY KEY,
  node_id INTEGER NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
  at      INTEGER NOT NULL,
  who     TEXT NOT NULL,
  action  TEXT NOT NULL,
  before  TEXT,
  after   TEXT
);
CREATE INDEX node_audit_node ON node_audit (node_id, id);
