-- A crawler node's word 3-shingles (src/text/minhash.ts), as little-endian 32-bit hashes: the
-- near-copy search compares a page's paragraphs with stored ones by them. Kept beside the text, a
-- candidate is read, not split again, however large the store grows; nodes stored before, and a
-- text an author edits, have none and are split when they come up.
ALTER TABLE nodes ADD COLUMN shingles BLOB;
