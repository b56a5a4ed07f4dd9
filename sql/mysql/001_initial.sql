-- anwc schema 1 (MySQL/MariaDB). Times are milliseconds since the epoch; hashes are SHA-256 in hex.
-- Meta words and nodes are many-to-many (thesis Figure 10) through node_meta.
-- Text is utf8mb4; keys compare with utf8mb4_bin so that stems and hosts differing only in case
-- or accents stay distinct. MySQL commits DDL at once, so every statement can run again safely.

CREATE TABLE IF NOT EXISTS meta_words (
  id   INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  word VARCHAR(191) NOT NULL,
  stem VARCHAR(191) NOT NULL,
  UNIQUE KEY meta_words_stem (stem)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS markup_files (
  id           INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  path         TEXT NOT NULL,
  path_hash    CHAR(64) CHARACTER SET ascii NOT NULL,
  content_hash CHAR(64) CHARACTER SET ascii NOT NULL,
  imported_at  BIGINT NOT NULL,
  UNIQUE KEY markup_files_path (path_hash)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS sections (
  id         INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  file_id    INT UNSIGNED NOT NULL,
  position   INT NOT NULL,
  name       VARCHAR(191),
  attributes TEXT NOT NULL,
  UNIQUE KEY sections_place (file_id, position),
  CONSTRAINT sections_file FOREIGN KEY (file_id) REFERENCES markup_files (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS nodes (
  id         INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  origin     ENUM('author', 'crawler') NOT NULL,
  text       MEDIUMTEXT NOT NULL,
  sentences  MEDIUMTEXT NOT NULL,
  text_hash  CHAR(64) CHARACTER SET ascii NOT NULL,
  source_url TEXT,
  relevance  DOUBLE,
  created_at BIGINT NOT NULL,
  UNIQUE KEY nodes_text (origin, text_hash)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS section_nodes (
  section_id INT UNSIGNED NOT NULL,
  position   INT NOT NULL,
  node_id    INT UNSIGNED NOT NULL,
  PRIMARY KEY (section_id, position),
  KEY section_nodes_node (node_id),
  CONSTRAINT section_nodes_section FOREIGN KEY (section_id) REFERENCES sections (id) ON DELETE CASCADE,
  CONSTRAINT section_nodes_of FOREIGN KEY (node_id) REFERENCES nodes (id) ON DELETE CASCADE
) ENGINE=InnoDB;

CREATE TABLE IF NOT EXISTS node_meta (
  node_id      INT UNSIGNED NOT NULL,
  meta_word_id INT UNSIGNED NOT NULL,
  PRIMARY KEY (node_id, meta_word_id),
  KEY node_meta_word (meta_word_id, node_id),
  CONSTRAINT node_meta_node FOREIGN KEY (node_id) REFERENCES nodes (id) ON DELETE CASCADE,
  CONSTRAINT node_meta_meta FOREIGN KEY (meta_word_id) REFERENCES meta_words (id) ON DELETE CASCADE
) ENGINE=InnoDB;

CREATE TABLE IF NOT EXISTS search_queries (
  id         INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  provider   VARCHAR(64) NOT NULL,
  terms      TEXT NOT NULL,
  results    MEDIUMTEXT NOT NULL,
  created_at BIGINT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS query_meta (
  query_id     INT UNSIGNED NOT NULL,
  meta_word_id INT UNSIGNED NOT NULL,
  PRIMARY KEY (query_id, meta_word_id),
  KEY query_meta_word (meta_word_id, query_id),
  CONSTRAINT query_meta_query FOREIGN KEY (query_id) REFERENCES search_queries (id) ON DELETE CASCADE,
  CONSTRAINT query_meta_meta FOREIGN KEY (meta_word_id) REFERENCES meta_words (id) ON DELETE CASCADE
) ENGINE=InnoDB;

CREATE TABLE IF NOT EXISTS domains (
  id                INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  host              VARCHAR(255) NOT NULL,
  score             DOUBLE NOT NULL DEFAULT 1,
  pages             INT UNSIGNED NOT NULL DEFAULT 0,
  nodes             INT UNSIGNED NOT NULL DEFAULT 0,
  errors            INT UNSIGNED NOT NULL DEFAULT 0,
  robots            MEDIUMTEXT,
  robots_expires_at BIGINT,
  next_fetch_at     BIGINT,
  UNIQUE KEY domains_host (host)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS links (
  id               INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  url              TEXT NOT NULL,
  url_hash         CHAR(64) CHARACTER SET ascii NOT NULL,
  domain_id        INT UNSIGNED NOT NULL,
  depth            INT NOT NULL DEFAULT 0,
  status           ENUM('pending', 'leased', 'done', 'failed', 'excluded') NOT NULL DEFAULT 'pending',
  query_id         INT UNSIGNED,
  referrer_id      INT UNSIGNED,
  outcome_kind     VARCHAR(64),
  outcome_detail   TEXT,
  etag             VARCHAR(255),
  last_modified    VARCHAR(64),
  lease_owner      VARCHAR(191),
  lease_expires_at BIGINT,
  discovered_at    BIGINT NOT NULL,
  completed_at     BIGINT,
  UNIQUE KEY links_url (url_hash),
  KEY links_frontier (domain_id, status, id),
  KEY links_leases (status, lease_expires_at),
  CONSTRAINT links_domain FOREIGN KEY (domain_id) REFERENCES domains (id),
  CONSTRAINT links_query FOREIGN KEY (query_id) REFERENCES search_queries (id),
  CONSTRAINT links_referrer FOREIGN KEY (referrer_id) REFERENCES links (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS runs (
  id         INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  params     TEXT NOT NULL,
  seed       BIGINT,
  stats      TEXT,
  started_at BIGINT NOT NULL,
  ended_at   BIGINT
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS settings (
  `key`   VARCHAR(191) NOT NULL PRIMARY KEY,
  `value` TEXT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
