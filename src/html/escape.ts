/**
 * Text from a web page or a user's file made safe to put into HTML we write: element content and
 * quoted attribute values alike (both quote kinds escaped, so either quoting works).
 */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** A URL for an href or src we write: only http(s) and relative references; anything else becomes inert. */
export function safeHref(url: string): string {
  const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  return escapeHtml(scheme === undefined || scheme === 'http' || scheme === 'https' ? url : '#');
}

/** Text for XML we write (GraphML, GEXF, JUnit): escaped, and without the characters XML 1.0 forbids, so the file always parses. */
export function escapeXml(s: string): string {
  return s
    .replace(/[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
