/**
 * British and American spellings of one word (ranking, issue 31): "coloured" and `colored`,
 * "behaviour" and `behavior`, "initialise" and `initialize`, "analyse" and `analyze`, "centre" and
 * `center`, "cancelled" and `canceled` are one word. {@link americanSpelling} maps a word to its
 * American form, which the ranking's word-form stem ({@link wordStem} in query.ts) starts from, so
 * a query word and a name word stem alike whichever spelling each uses; {@link spellingVariants}
 * gives the other spellings of a query word, which the full-text query also looks for (FTS5's
 * Porter stemmer keeps `colour` and `color` apart). A variant the index does not hold matches
 * nothing and weighs nothing (the word's weight is the idf of its most frequent spelling), so the
 * rules may over-generate (`advise` also tries `advize`); no rule is keyed to one project.
 */

/** Roots spelt `-our` in British English and `-or` in American English (explicit: `four`, `hour`, `source` are not). */
const OUR_ROOTS: readonly string[] = ['colour', 'behaviour', 'honour', 'favour', 'flavour', 'labour', 'neighbour', 'humour', 'rumour', 'harbour', 'armour', 'vapour', 'endeavour', 'parlour', 'savour', 'vigour', 'odour', 'clamour', 'rigour', 'tumour', 'valour', 'splendour'];
/** Roots spelt `-re` in British English and `-er` in American English. */
const RE_ROOTS: readonly string[] = ['centre', 'metre', 'litre', 'fibre', 'theatre', 'calibre', 'sabre', 'spectre', 'meagre', 'lustre', 'sombre'];
/** Roots whose final `l` British English doubles before `-ed`/`-ing`/`-er` and American English does not. */
const DOUBLED_L_ROOTS: readonly string[] = ['cancel', 'label', 'model', 'travel', 'signal', 'total', 'level', 'fuel', 'tunnel', 'channel', 'marshal', 'dial', 'funnel', 'panel', 'pedal', 'shovel', 'counsel'];
/** Whole-word pairs (British, American) no rule covers. */
const WORD_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['licence', 'license'], ['licences', 'licenses'], ['defence', 'defense'], ['offence', 'offense'], ['pretence', 'pretense'],
  ['catalogue', 'catalog'], ['catalogues', 'catalogs'], ['dialogue', 'dialog'], ['dialogues', 'dialogs'], ['analogue', 'analog'],
  ['grey', 'gray'], ['programme', 'program'], ['programmes', 'programs'], ['cheque', 'check'], ['cosy', 'cozy'], ['plough', 'plow'],
];
const BRITISH_WORDS: ReadonlyMap<string, string> = new Map(WORD_PAIRS);
const AMERICAN_WORDS: ReadonlyMap<string, string> = new Map(WORD_PAIRS.map(([b, a]) => [a, b]));
/** `-ise`/`-yse` verb forms and their nouns (`initialise`, `initialisation`, `analysed`): the root keeps at least 3 letters. */
const ISE_FORM = /^([a-z]{3,}[a-z])([iy])s(e|ed|es|er|ers|ing|ation|ations|able)$/;
const IZE_FORM = /^([a-z]{3,}[a-z])([iy])z(e|ed|es|er|ers|ing|ation|ations|able)$/;

/** The American spelling of a lowercase word (the word itself when no rule applies). */
export function americanSpelling(word: string): string {
  const whole = BRITISH_WORDS.get(word);
  if (whole !== undefined) return whole;
  for (const root of OUR_ROOTS) if (word.startsWith(root)) return `${root.slice(0, -2)}r${word.slice(root.length)}`;
  for (const root of RE_ROOTS) if (word === root || word === `${root}s` || word === `${root}d`) return `${root.slice(0, -2)}er${word.slice(root.length)}`.replace(/erd$/, 'ered');
  for (const root of DOUBLED_L_ROOTS) {
    if (word.startsWith(`${root}l`) && /^(ed|ing|er|ers)$/.test(word.slice(root.length + 1))) return `${root}${word.slice(root.length + 1)}`;
  }
  const ise = ISE_FORM.exec(word);
  return ise === null ? word : `${ise[1]}${ise[2]}z${ise[3]}`;
}

/** The British spelling of a lowercase American word (the word itself when no rule applies); the inverse of {@link americanSpelling}. */
function britishSpelling(word: string): string {
  const whole = AMERICAN_WORDS.get(word);
  if (whole !== undefined) return whole;
  for (const root of OUR_ROOTS) {
    const american = `${root.slice(0, -2)}r`;
    if (word.startsWith(american) && !word.startsWith(root)) return `${root}${word.slice(american.length)}`;
  }
  for (const root of RE_ROOTS) {
    const american = `${root.slice(0, -2)}er`;
    if (word === american || word === `${american}s` || word === `${american}ed`) return `${root}${word.slice(american.length)}`.replace(/reed$/, 'red');
  }
  for (const root of DOUBLED_L_ROOTS) {
    if (word.startsWith(root) && /^(ed|ing|er|ers)$/.test(word.slice(root.length))) return `${root}l${word.slice(root.length)}`;
  }
  const ize = IZE_FORM.exec(word);
  return ize === null ? word : `${ize[1]}${ize[2]}s${ize[3]}`;
}

/** The other spellings of a lowercase word (British for an American one, American for a British one), without the word itself. */
export function spellingVariants(word: string): string[] {
  const out = new Set([americanSpelling(word), britishSpelling(word)]);
  out.delete(word);
  return [...out];
}
