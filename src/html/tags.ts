/**
 * The tags of a page as a scan over its source sees them, for the passes that fix up markup before
 * a parser reads it (dom.ts, nesting.ts). Pure, no I/O.
 */

/** A start or end tag, attributes quoted or not (a `>` inside quotes does not end it). */
export const TAG_SOURCE = String.raw`<(\/?)([a-zA-Z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>`;

/** Elements with no end tag, in either parser's list (node-html-parser's lacks frame and keygen). */
export const VOID_TAGS: readonly string[] = 'area base basefont bgsound br col embed frame hr img input keygen link meta param source track wbr'.split(' ');

/**
 * The elements a scan holds open, with the questions the HTML tree builder asks of them — the
 * nearest open element of a tag, and whether one of a kind stands above it — answered in constant
 * (amortised) time. A hostile page opens a hundred thousand elements, and a look through the
 * whole list at every tag made the scan quadratic.
 */
export class OpenStack<K extends string> {
  private readonly tags: string[] = [];
  /** Where the open elements of each tag stand, and those of each kind, ascending. */
  private readonly byTag = new Map<string, number[]>();
  private readonly byKind = new Map<K, number[]>();
  /** The kinds of each tag met, worked out once. */
  private readonly kindsOf = new Map<string, number[][]>();

  constructor(private readonly kinds: Readonly<Record<K, (tag: string) => boolean>>) {
    for (const k of Object.keys(kinds) as K[]) this.byKind.set(k, []);
  }

  get length(): number {
    return this.tags.length;
  }

  top(): string | undefined {
    return this.tags[this.tags.length - 1];
  }

  /** The tag of the element at position `i`. */
  at(i: number): string {
    return this.tags[i]!;
  }

  push(tag: string): void {
    const i = this.tags.length;
    this.tags.push(tag);
    this.positions(tag).push(i);
    for (const list of this.kindLists(tag)) list.push(i);
  }

  /** Closes every element from position `n` up. */
  truncate(n: number): void {
    while (this.tags.length > n) {
      const tag = this.tags.pop()!;
      this.positions(tag).pop();
      for (const list of this.kindLists(tag)) list.pop();
    }
  }

  /** The position of the nearest open element of this tag, or -1. */
  nearest(tag: string): number {
    const list = this.byTag.get(tag);
    return list !== undefined && list.length > 0 ? list[list.length - 1]! : -1;
  }

  /** Whether an element of the kind stands above position `i` (-1: anywhere). */
  hasAbove(i: number, kind: K): boolean {
    const list = this.byKind.get(kind)!;
    return list.length > 0 && list[list.length - 1]! > i;
  }

  private positions(tag: string): number[] {
    let list = this.byTag.get(tag);
    if (!list) this.byTag.set(tag, (list = []));
    return list;
  }

  private kindLists(tag: string): number[][] {
    let lists = this.kindsOf.get(tag);
    if (!lists) {
      lists = (Object.keys(this.kinds) as K[]).filter((k) => this.kinds[k](tag)).map((k) => this.byKind.get(k)!);
      this.kindsOf.set(tag, lists);
    }
    return lists;
  }
}
