-- A node's band keys move into a column of its own row (comma-separated, NULL for none): the
-- near-copy search holds them in memory (src/store/mysql/bands.ts), so the table was only their
-- log, and its rows were the heaviest inserts of a page on the server (bench crawl).
-- Every statement may run again: a migration cut short runs again in full, and the table is
-- made again (empty) for the copy to find. The table is emptied, not dropped: on a Galera cluster
-- processes that open a new database on two nodes run the migrations alongside, and a DROP here
-- would pull it from under another's 006-015, which build it.
ALTER TABLE nodes ADD COLUMN IF NOT EXISTS bands TEXT NULL;
CREATE TABLE IF NOT EXISTS node_bands (
  band_key BIGINT UNSIGNED NOT NULL,
  node_id  INT UNSIGNED NOT NULL,
  PRIMARY KEY (node_id, band_key)
) ENGINE=InnoDB;
UPDATE nodes n JOIN (SELECT node_id, GROUP_CONCAT(band_key) AS k FROM node_bands GROUP BY node_id) b ON b.node_id = n.id
  SET n.bands = b.k;
TRUNCATE TABLE node_bands;
