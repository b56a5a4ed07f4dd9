-- The author's curation of foreign text (anwc serve): a node is unreviewed until approved or
-- rejected; a rejected node is never drawn. Every change an author makes (review, edited text,
-- meta words) is kept in node_audit with who made it and when.
ALTER TABLE nodes ADD COLUMN IF NOT EXISTS review ENUM('unreviewed', 'approved', 'rejected') NOT NULL DEFAULT 'unreviewed';

CREATE TABLE IF NOT EXISTS node_audit (
  id      BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  node_id INT UNSIGNED NOT NULL,
  at      BIGINT NOT NULL,
  who     VARCHAR(191) NOT NULL,
  action  VARCHAR(32) NOT NULL,
  `before` MEDIUMTEXT,
  `after`  MEDIUMTEXT,
  KEY node_audit_node (node_id, id),
  CONSTRAINT node_audit_node FOREIGN KEY (node_id) REFERENCES nodes (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
