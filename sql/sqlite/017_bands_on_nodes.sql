-- A node's band keys move into a column of its own row (comma-separated, NULL for none): the
-- near-copy search holds them in memory (src/store/sqlite/bands.ts), so the table was only their
-- log, and a new node cost sixteen inserts into it. Every key of a node was written with it, so a
-- node's keys are always read together.
ALTER TABLE nodes ADD COLUMN bands TEXT;
UPDATE nodes SET bands = (SELECT group_concat(band_key) FROM node_bands WHERE node_id = nodes.id)
  WHERE id IN (SELECT node_id FROM node_bands);
DROP TABLE node_bands;
-- A deleted node's id goes to the next node written: a delete of a node with keys tells every
-- reader to read them again (BANDS_EDITED), as an edit of a node's text does.
CREATE TRIGGER nodes_bands_deleted AFTER DELETE ON nodes WHEN OLD.bands IS NOT NULL
BEGIN
  INSERT OR REPLACE INTO settings (key, value) VALUES ('node_bands_edited',
    COALESCE((SELECT CAST(value AS INTEGER) FROM settings WHERE key = 'node_bands_edited'), 0) + 1);
END;
