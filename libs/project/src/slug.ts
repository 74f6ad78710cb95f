/**
 * GitHub-style heading slugs (the algorithm of github-slugger): lowercase, drop punctuation and
 * symbols except `-` and `_`, spaces to `-`; repeats in one file get `-1`, `-2` suffixes.
 */

const REMOVE = /[^\p{L}\p{M}\p{N}\p{Pc} -]/gu;

/**
 * The GitHub-style slug of a heading's plain text, without de-duplication.
 * @example slugify('Hooks & Lifecycle: onRequest()') === 'hooks--lifecycle-onrequest'
 */
export function slugify(text: string): string {
  return text.toLowerCase().replace(REMOVE, '').replace(/ /g, '-');
}

/** De-duplicates slugs within one file the way GitHub does (`a`, `a-1`, `a-2`). */
export class Slugger {
  private readonly occurrences = new Map<string, number>();

  /** The unique slug for the next heading with this text. */
  slug(text: string): string {
    const base = slugify(text);
    let result = base;
    while (this.occurrences.has(result)) {
      const count = (this.occurrences.get(base) ?? 0) + 1;
      this.occurrences.set(base, count);
      result = `${base}-${count}`;
    }
    this.occurrences.set(result, 0);
    return result;
  }
}
