-- A band key holds at most 64 nodes (BAND_FANOUT in src/store/rows.ts): a key that more
-- paragraphs share says little about any one of them. Stores written before kept every node
-- under a key; each key keeps its first 64, as a key now fills.
DELETE b FROM node_bands b
  JOIN (SELECT band_key, node_id FROM (
          SELECT band_key, node_id, ROW_NUMBER() OVER (PARTITION BY band_key ORDER BY node_id) AS n
          FROM node_bands WHERE band_key IN (SELECT band_key FROM node_bands GROUP BY band_key HAVING COUNT(*) > 64)
        ) ranked WHERE n > 64) extra
    ON extra.band_key = b.band_key AND extra.node_id = b.node_id;
