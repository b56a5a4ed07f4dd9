-- How strongly a node speaks of a meta word (its share of the node's content words; author links
-- weigh 1): the engine draws the nodes of a clicked word in proportion to it.
ALTER TABLE node_meta ADD COLUMN IF NOT EXISTS weight DOUBLE NOT NULL DEFAULT 1;
