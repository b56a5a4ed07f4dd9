/**
 * The tags of a page as a scan over its source sees them, for the passes that fix up markup before
 * a parser reads it (dom.ts, nesting.ts). Pure, no I/O.
 */

/** A start or end tag met by TagScanner. */
export interface Tag {
  /** Where its `<` stands, and where it ends (after its `>`). */
  index: number;
  end: number;
  closing: boolean;
  /** As written, not lower-cased. */
  name: string;
  /** What stands between the name and the `>`. */
  attrs: string;
}

/**
 * The tags of a page one after another: `<` or `</`, a name, then anything up to a `>`, where a
 * quote opens a stretch (to the same quote) in which `>` does not end the tag — what the regular
 * expression `<(\/?)([a-zA-Z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>` matches, but in time linear
 * in the page. The expression, tried at every `<` of a page of `<a ` or `<a "` that never closes,
 * read the rest of the page each time: 120 KB of `<a ` took 15 s. A tag that never ends leaves
 * marks where its scan went, outside quotes, and a later start that meets one fails at once.
 */
export class TagScanner {
  /** Where the next tag is looked for; a caller may move it on (past a raw-text element's content). */
  at = 0;
  /** Quotes and `>` met outside quotes by a scan that never ended: a scan meeting one never ends either. */
  private readonly dead = new Set<number>();
  /** The last answer of `special`: from `from` on, the first special character is at `found` (-1: none). */
  private from = Infinity;
  private found = -1;

  constructor(private readonly html: string, private readonly opts: { comments?: boolean } = {}) {}

  next(): Tag | undefined {
    const s = this.html;
    for (let i = s.indexOf('<', this.at); i >= 0; i = s.indexOf('<', i + 1)) {
      if (this.opts.comments && s.startsWith('<!--', i)) {
        // As the HTML tokenizer ends them: `<!-->`, `<!--->`, or at `-->` or the page's end.
        if (s.startsWith('>', i + 4)) i += 4;
        else if (s.startsWith('->', i + 4)) i += 5;
        else {
          const close = s.indexOf('-->', i + 4);
          if (close < 0) break;
          i = close + 2;
        }
        continue;
      }
      let p = i + 1;
      const closing = s.charCodeAt(p) === 47;
      if (closing) p++;
      if (!isLetter(s.charCodeAt(p))) continue;
      const name = p++;
      while (p < s.length && isNameChar(s.charCodeAt(p))) p++;
      const end = this.endFrom(p);
      if (end < 0) continue;
      this.at = end;
      return { index: i, end, closing, name: s.slice(name, p), attrs: s.slice(p, end - 1) };
    }
    this.at = s.length;
    return undefined;
  }

  /** Where a tag whose name ends at `p` ends, or -1 when it never does. */
  private endFrom(p: number): number {
    const s = this.html;
    // Most tags end at the first special character after their name; a list of where the scan
    // went is made only for one that holds quotes.
    let path: number[] | undefined;
    let k = this.special(p);
    let end = -1;
    while (k >= 0 && !this.dead.has(k)) {
      if (s.charCodeAt(k) === 62) {
        end = k + 1;
        break;
      }
      (path ??= []).push(k);
      const close = s.indexOf(s[k]!, k + 1);
      if (close < 0) break;
      k = this.special(close + 1);
    }
    if (end < 0 && path) for (const q of path) this.dead.add(q);
    return end;
  }

  /** The first `>` or quote from `p` on, or -1. */
  private special(p: number): number {
    if (p >= this.from && (this.found < 0 || p <= this.found)) return this.found;
    const s = this.html;
    this.from = p;
    // A loop over char codes: a regular expression would make a match object for every tag.
    for (let i = p; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === 62 || c === 34 || c === 39) return (this.found = i);
    }
    return (this.found = -1);
  }
}

const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
/** `\w`, `:` and `-`, as the expression's name. */
const isNameChar = (c: number): boolean => isLetter(c) || (c >= 48 && c <= 57) || c === 95 || c === 58 || c === 45;

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
