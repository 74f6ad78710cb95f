/**
 * Type declarations at line starts behind a chain of modifier words (`public sealed class X`), as
 * the lexical scanners of C#, Java and PHP read them, in linear time (regex guard, issue 30). The
 * patterns they replace, `/^\s{0,4}(?:(?:public|…)\s+)*(class|…)\s+(\w+)/gm`, let a chain's blanks
 * span lines, so every line start inside a long chain that ends in no declaration rescanned the
 * chain to its end: quadratic (4.6 s on 164 KB of `abstract\n` lines).
 */

/** The words of one language's declaration lines. */
export interface DeclarationWords {
  /** Most blanks before the first word (`\s{0,N}` in the pattern), 0 for none. */
  readonly lead: number;
  /** Modifier words, any number of them, each followed by blanks. */
  readonly modifiers: readonly string[];
  /** Declaration keywords; the name (`\w+`) follows one after blanks. */
  readonly keywords: readonly string[];
}

import { blanks } from './linear-scan.js';
import { nextLineStart } from './linear-scan-cpp.js';

const BLANK = /\s/;
const WORD = /\w/;

/** The word of `words` at `at` that blanks follow (one at most: no word is a prefix of another there), or null. */
function wordAt(s: string, at: number, words: readonly string[]): string | null {
  for (const word of words) if (s.startsWith(word, at) && at + word.length < s.length && BLANK.test(s[at + word.length]!)) return word;
  return null;
}

/**
 * Every declaration of `s` in order, with the same matches as the pattern above (multiline `^`
 * after any line terminator; the search resumes after each match): `index` of its line start,
 * `keyword` and `name`. A chain is scanned once: a later line start whose first word lies inside a
 * chain already scanned without a declaration ends the same way, so it is skipped.
 * @param s source text (for these languages: comments and strings masked)
 */
export function modifierDeclarations(s: string, words: DeclarationWords): { index: number; keyword: string; name: string }[] {
  const out: { index: number; keyword: string; name: string }[] = [];
  let failedChain = new Set<number>();
  for (let i = 0; i < s.length || i === 0; ) {
    let lead = i;
    while (lead < s.length && lead - i < words.lead && BLANK.test(s[lead]!)) lead += 1;
    let matchEnd = -1;
    if (!failedChain.has(lead)) {
      const starts: number[] = [];
      let at = lead;
      for (let m = wordAt(s, at, words.modifiers); m !== null; m = wordAt(s, at, words.modifiers)) (starts.push(at), (at = blanks(s, at + m.length)));
      const keyword = wordAt(s, at, words.keywords);
      const nameAt = keyword === null ? -1 : blanks(s, at + keyword.length);
      let nameEnd = nameAt;
      while (nameEnd >= 0 && nameEnd < s.length && WORD.test(s[nameEnd]!)) nameEnd += 1;
      if (keyword !== null && nameEnd > nameAt) {
        out.push({ index: i, keyword, name: s.slice(nameAt, nameEnd) });
        matchEnd = nameEnd;
      } else failedChain = new Set([...starts, at]);
    }
    // The next line start after the match (which ends in a word character, never a line break) or after this one.
    i = nextLineStart(s, matchEnd >= 0 ? matchEnd : i);
    if (i > s.length) break;
  }
  return out;
}
