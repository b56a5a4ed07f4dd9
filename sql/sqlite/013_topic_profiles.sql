-- Topic profiles (issue 33): each meta word's weighted terms, learned from the author nodes that
-- carry it and the words around it in the markup, rebuilt at each import and harvest start. A
-- crawler node is linked to the meta words its text is relevant to, and each link keeps what it
-- rests on (the literal word, the profile terms shared, the score) for `anwc why-node`.
CREATE TABLE IF NOT EXISTS meta_profiles (
  meta_word_id INTEGER PRIMARY KEY REFERENCES meta_words(id) ON DELETE CASCADE,
  terms        TEXT NOT NULL,
  anchors      TEXT NOT NULL,
  sources      INTEGER NOT NULL,
  built_at     INTEGER NOT NULL
);
ALTER TABLE node_meta ADD COLUMN evidence TEXT;
