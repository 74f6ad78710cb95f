/**
 * GitHub-style heading slugs from the `github-slugger` package (the algorithm GitHub uses for
 * heading ids): lowercase, punctuation and symbols dropped except `-` and `_`, spaces to `-`.
 */
import GithubSlugger, { slug } from 'github-slugger';

/**
 * The GitHub-style slug of a heading's plain text, without de-duplication.
 * @example slugify('Hooks & Lifecycle: onRequest()') === 'hooks--lifecycle-onrequest'
 */
export function slugify(text: string): string {
  // Anchors compare in NFC (issue 30 item 3), whichever normal form the heading was written in.
  return slug(text.normalize('NFC'));
}

/**
 * De-duplicates slugs within one file exactly as GitHub does (`example`, `example-1`, ...). One
 * instance per file.
 */
export class Slugger {
  private readonly slugger = new GithubSlugger();

  /** The unique slug for the next heading with this plain text. */
  slug(text: string): string {
    return this.slugger.slug(text.normalize('NFC'));
  }
}
