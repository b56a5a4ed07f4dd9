-- Near-copies of crawler paragraphs. Each crawler node's MinHash band keys (src/text/minhash.ts),
-- as band * 2^32 + key, find the stored paragraphs a new one may copy; node_copies records every
-- page where a stored paragraph was met again, the same text (exact) or a near-copy (near), so a
-- repeated footer or a syndicated story becomes one node with its other sources beside it.
CREATE TABLE node_bands (
  band_key INTEGER NOT NULL,
  node_id  INTEGER NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
  PRIMARY KEY (band_key, node_id)
) WITHOUT ROWID;
CREATE INDEX node_bands_node ON node_bands (node_id);

CREATE TABLE node_copies (
  node_id    INTEGER NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
  source_url TEXT NOT NULL,
  kind       TEXT NOT NULL CHECK (kind IN ('exact', 'near')),
  similarity REAL NOT NULL,
  found_at   INTEGER NOT NULL,
  PRIMARY KEY (node_id, source_url)
);
