-- Near-copies of crawler paragraphs. Each crawler node's MinHash band keys (src/text/minhash.ts),
-- as band * 2^32 + key, find the stored paragraphs a new one may copy; node_copies records every
-- page where a stored paragraph was met again, the same text (exact) or a near-copy (near), so a
-- repeated footer or a syndicated story becomes one node with its other sources beside it.
CREATE TABLE IF NOT EXISTS node_bands (
  band_key BIGINT UNSIGNED NOT NULL,
  node_id  INT UNSIGNED NOT NULL,
  PRIMARY KEY (band_key, node_id),
  KEY node_bands_node (node_id),
  CONSTRAINT node_bands_node FOREIGN KEY (node_id) REFERENCES nodes (id) ON DELETE CASCADE
) ENGINE=InnoDB;

CREATE TABLE IF NOT EXISTS node_copies (
  node_id     INT UNSIGNED NOT NULL,
  source_hash CHAR(64) CHARACTER SET ascii NOT NULL,
  source_url  TEXT NOT NULL,
  kind        ENUM('exact', 'near') NOT NULL,
  similarity  DOUBLE NOT NULL,
  found_at    BIGINT NOT NULL,
  PRIMARY KEY (node_id, source_hash),
  CONSTRAINT node_copies_node FOREIGN KEY (node_id) REFERENCES nodes (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
