-- robots.txt applies to one origin: scheme, host and port (RFC 9309 §2.3). Kept beside the
-- domain, by host name, the rules read from http://h:9104/ were applied to http://h:9105/ as well.
-- Each origin's rules now have a row of their own, with their expiry; those kept by host are
-- dropped, not guessed at (they are a cache: each origin's robots.txt is read again).
-- An origin is ASCII (URL.origin writes a host in punycode): 'https://', 253 and ':65535' fit.
CREATE TABLE IF NOT EXISTS robots (
  origin     VARCHAR(300) CHARACTER SET ascii COLLATE ascii_bin NOT NULL PRIMARY KEY,
  rules      MEDIUMTEXT NOT NULL,
  expires_at BIGINT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
ALTER TABLE domains DROP COLUMN IF EXISTS robots;
ALTER TABLE domains DROP COLUMN IF EXISTS robots_expires_at;
