/**
 * The most elements a page's tree holds (html/dom.ts). A tree costs some 800 bytes an element to
 * build and the extractors' reading of it as much again (a table of 210,000 elements, 4 MB of HTML
 * within the default --max-bytes, peaked at 364 MB with the thesis extractor and 780 MB with
 * `narrative`), so a hostile page could take a crawler's memory; past the cap a page is read as if
 * cut there, as a body past --max-bytes is. The reference scan's parser (walk/references.ts) is
 * held to it too. The largest of the 372 pages of ../shared (the extraction benchmarks' and the
 * corpus) has 9,892 elements, a long Wikipedia article. Trafilatura bounds its trees too
 * (MAX_TREE_SIZE). A module of its own, so that the messages naming it load no parser.
 */
export const MAX_ELEMENTS = 50_000;

/** How a message names the cap: "50,000 elements". */
export const ELEMENTS_CAP = `${MAX_ELEMENTS.toLocaleString('en')} elements`;

/** The page up to where its (max + 1)-th start tag begins, or undefined when it has no more than max. */
export function cutAtElements(html: string, max: number): string | undefined {
  // A start tag takes three characters at least: a shorter page is not scanned.
  if (html.length <= 3 * max) return undefined;
  const startTag = /<[a-zA-Z]/g;
  for (let n = 0; startTag.exec(html) !== null; n++) if (n === max) return html.slice(0, startTag.lastIndex - 2);
  return undefined;
}
