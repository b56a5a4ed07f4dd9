-- The near-copy search on MySQL now reads band keys from memory too (src/store/mysql/bands.ts),
-- as SQLite's does, brought up to date from this table: kept in node order, a new node's rows go
-- at the end instead of to sixteen random places in the key order. On the crawl bench the random
-- inserts and the look-ups by key were about a third of the server's CPU a page.
-- Both statements may run again: a migration cut short runs again in full.
ALTER TABLE node_bands DROP PRIMARY KEY, ADD PRIMARY KEY (node_id, band_key);
-- The key now leads with node_id, which the foreign key uses.
ALTER TABLE node_bands DROP INDEX IF EXISTS node_bands_node;
