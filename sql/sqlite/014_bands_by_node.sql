-- The near-copy search reads band keys from memory (src/store/sqlite/bands.ts), brought up to date
-- with the rows of the nodes written since it last read: the table is kept in node order, where
-- a new node's rows go at the end, instead of in key order, where each of its sixteen keys
-- dirtied a page of its own at every commit.
CREATE TABLE node_bands_by_node (
  node_id  INTEGER NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
  band_key INTEGER NOT NULL,
  PRIMARY KEY (node_id, band_key)
) WITHOUT ROWID;
INSERT INTO node_bands_by_node (node_id, band_key) SELECT node_id, band_key FROM node_bands;
DROP TABLE node_bands;
ALTER TABLE node_bands_by_node RENAME TO node_bands;
-- A deleted node's id goes to the next node written: a delete tells every reader to read the
-- table again (BANDS_EDITED), as an edit of a node's text does.
CREATE TRIGGER node_bands_deleted AFTER DELETE ON node_bands
BEGIN
  INSERT OR REPLACE INTO settings (key, value) VALUES ('node_bands_edited',
    COALESCE((SELECT CAST(value AS INTEGER) FROM settings WHERE key = 'node_bands_edited'), 0) + 1);
END;
