-- robots.txt applies to one origin: scheme, host and port (RFC 9309 §2.3). Kept beside the
-- domain, by host name, the rules read from http://h:9104/ were applied to http://h:9105/ as well.
-- Each origin's rules now have a row of their own, with their expiry; those kept by host are
-- dropped, not guessed at (they are a cache: each origin's robots.txt is read again).
CREATE TABLE IF NOT EXISTS robots (
  origin     TEXT PRIMARY KEY,
  rules      TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
ALTER TABLE domains DROP COLUMN robots;
ALTER TABLE domains DROP COLUMN robots_expires_at;
