-- anwc schema 1 (SQLite). Times are milliseconds since the epoch; hashes are SHA-256 in hex.
-- Meta words and nodes are many-to-many (thesis Figure 10) through node_meta.

CREATE TABLE meta_words (
  id         INTEGER PRIMARY KEY,
  word       TEXT NOT NULL,
  stem       TEXT NOT NULL UNIQUE
);

CREATE TABLE markup_files (
  id           INTEGER PRIMARY KEY,
  path         TEXT NOT NULL UNIQUE,
  content_hash TEXT NOT NULL,
  imported_at  INTEGER NOT NULL
);

CREATE TABLE sections (
  id         INTEGER PRIMARY KEY,
  file_id    INTEGER NOT NULL REFERENCES markup_files(id) ON DELETE CASCADE,
  position   INTEGER NOT NULL,
  name       TEXT,
  attributes TEXT NOT NULL DEFAULT '{}',
  UNIQUE (file_id, position)
);

CREATE TABLE nodes (
  id         INTEGER PRIMARY KEY,
  origin     TEXT NOT NULL CHECK (origin IN ('author', 'crawler')),
  text       TEXT NOT NULL,
  sentences  TEXT NOT NULL DEFAULT '[]',
  text_hash  TEXT NOT NULL,
  source_url TEXT,
  relevance  REAL,
  created_at INTEGER NOT NULL,
  UNIQUE (origin, text_hash)
);

-- Where an author node stands in a file; a text shared by two files is one node placed twice.
CREATE TABLE section_nodes (
  section_id INTEGER NOT NULL REFERENCES sections(id) ON DELETE CASCADE,
  position   INTEGER NOT NULL,
  node_id    INTEGER NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
  PRIMARY KEY (section_id, position)
);
CREATE INDEX section_nodes_node ON section_nodes (node_id);

CREATE TABLE node_meta (
  node_id      INTEGER NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
  meta_word_id INTEGER NOT NULL REFERENCES meta_words(id) ON DELETE CASCADE,
  PRIMARY KEY (node_id, meta_word_id)
);
-- The engine's hot query: the nodes of a stem, by origin.
CREATE INDEX node_meta_word ON node_meta (meta_word_id, node_id);

CREATE TABLE search_queries (
  id         INTEGER PRIMARY KEY,
  provider   TEXT NOT NULL,
  terms      TEXT NOT NULL,
  results    TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL
);

CREATE TABLE query_meta (
  query_id     INTEGER NOT NULL REFERENCES search_queries(id) ON DELETE CASCADE,
  meta_word_id INTEGER NOT NULL REFERENCES meta_words(id) ON DELETE CASCADE,
  PRIMARY KEY (query_id, meta_word_id)
);
CREATE INDEX query_meta_word ON query_meta (meta_word_id, query_id);

CREATE TABLE domains (
  id                INTEGER PRIMARY KEY,
  host              TEXT NOT NULL UNIQUE,
  score             REAL NOT NULL DEFAULT 1,
  pages             INTEGER NOT NULL DEFAULT 0,
  nodes             INTEGER NOT NULL DEFAULT 0,
  errors            INTEGER NOT NULL DEFAULT 0,
  robots            TEXT,
  robots_expires_at INTEGER,
  next_fetch_at     INTEGER
);

CREATE TABLE links (
  id               INTEGER PRIMARY KEY,
  url              TEXT NOT NULL,
  url_hash         TEXT NOT NULL UNIQUE,
  domain_id        INTEGER NOT NULL REFERENCES domains(id),
  depth            INTEGER NOT NULL DEFAULT 0,
  status           TEXT NOT NULL DEFAULT 'pending'
                   CHECK (status IN ('pending', 'leased', 'done', 'failed', 'excluded')),
  query_id         INTEGER REFERENCES search_queries(id),
  referrer_id      INTEGER REFERENCES links(id),
  outcome_kind     TEXT,
  outcome_detail   TEXT,
  etag             TEXT,
  last_modified    TEXT,
  lease_owner      TEXT,
  lease_expires_at INTEGER,
  discovered_at    INTEGER NOT NULL,
  completed_at     INTEGER
);
-- Next pending link of a domain in discovery order (id order), and domains with pending links.
CREATE INDEX links_frontier ON links (domain_id, status, id);
CREATE INDEX links_leases ON links (status, lease_expires_at);

CREATE TABLE runs (
  id         INTEGER PRIMARY KEY,
  params     TEXT NOT NULL DEFAULT '{}',
  seed       INTEGER,
  stats      TEXT,
  started_at INTEGER NOT NULL,
  ended_at   INTEGER
);

CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
