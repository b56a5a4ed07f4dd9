-- Topic profiles (issue 33): each meta word's weighted terms, learned from the author nodes that
-- carry it and the words around it in the markup, rebuilt at each import and harvest start. A
-- crawler node is linked to the meta words its text is relevant to, and each link keeps what it
-- rests on (the literal word, the profile terms shared, the score) for `anwc why-node`.
CREATE TABLE IF NOT EXISTS meta_profiles (
  meta_word_id INT UNSIGNED NOT NULL PRIMARY KEY,
  terms        MEDIUMTEXT NOT NULL,
  anchors      TEXT NOT NULL,
  sources      INT UNSIGNED NOT NULL,
  built_at     BIGINT NOT NULL,
  CONSTRAINT meta_profiles_meta FOREIGN KEY (meta_word_id) REFERENCES meta_words (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
ALTER TABLE node_meta ADD COLUMN IF NOT EXISTS evidence TEXT NULL;
