import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

/** What a page handler renders: hono's escaped HTML (every interpolated string is escaped). */
export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

export const SECTIONS = [
  ['story', '/story', 'Story'],
  ['nodes', '/nodes', 'Foreign text'],
  ['steer', '/steer', 'Steer'],
  ['wheel', '/wheel', 'Wheel'],
] as const;

export type Section = (typeof SECTIONS)[number][0];

/** The page around every view: no inline script or style, so the Content-Security-Policy needs no unsafe-inline. */
export function layout(title: string, active: Section, body: Html): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · anwc studio</title>
<link rel="stylesheet" href="/static/studio.css">
<script src="/static/studio.js" defer></script>
</head>
<body>
<header><strong>anwc studio</strong>
<nav>${SECTIONS.map(([id, href, label]) => html`<a href="${href}"${id === active ? html` aria-current="page"` : ''}>${label}</a> `)}</nav>
</header>
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>`;
}

/** A notice at the top of a page (after a redirect: ?note=…), or nothing. */
export function notice(text: string | undefined, kind: 'ok' | 'error' = 'ok'): Html | string {
  return text ? html`<p class="notice ${kind}" role="status">${text}</p>` : '';
}

export function when(at: number | null): string {
  return at === null ? 'never' : new Date(at).toISOString().replace('T', ' ').slice(0, 19);
}
