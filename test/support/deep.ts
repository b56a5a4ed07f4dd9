/**
 * A hostile page for the nesting limit (src/html/nesting.ts): a story, then a section nested
 * `levels` divs deep with a paragraph and a link at the bottom. At 100,000 levels it is 1.1 MB.
 */

export const STORY = [
  'The keeper climbed the stairs of the tower at dusk, and the lamp was lit before the first boat came round the point.',
  'From the gallery she could see the whole bay, and the fishing boats were small and dark against the silver water.',
] as const;
export const BOTTOM = 'Nobody in the village remembered when the light was built, but everyone knew the story of the night it went dark.';

/** The link at the bottom points to `leaf` (relative to the page). */
export function deepPage(levels: number, leaf = '/leaf.html'): string {
  return `<!DOCTYPE html><html><head><title>Deep</title></head><body><div class="article-body">${STORY.map((p) => `<p>${p}</p>`).join('')}</div>` +
    `<section>${'<div>'.repeat(levels)}<p>${BOTTOM} <a href="${leaf}">the leaf</a></p>${'</div>'.repeat(levels)}</section></body></html>`;
}
