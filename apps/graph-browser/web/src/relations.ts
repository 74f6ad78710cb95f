/**
 * Relation categories of the contract (libs/core RELATION_ALIASES plus `unclassified`), their
 * card titles, and the visual encoding of each relation: color by category, line pattern and arrow
 * symbol per relation so that two relations of one category stay distinguishable.
 */

/** The contract's categories in card order, with their card titles. */
export const CATEGORIES: readonly { category: string; title: string }[] = [
  { category: 'structure', title: 'Structure' },
  { category: 'implementation', title: 'Behavior' },
  { category: 'dependency', title: 'Dependency' },
  { category: 'execution', title: 'Execution' },
  { category: 'data', title: 'Data' },
  { category: 'evidence', title: 'Evidence' },
  { category: 'context', title: 'Context' },
  { category: 'unclassified', title: 'Related' },
];

const CATEGORY_COLORS: Record<string, string> = {
  structure: '#4c6ef5',
  implementation: '#2b8a3e',
  dependency: '#e8590c',
  execution: '#c2255c',
  data: '#0c8599',
  evidence: '#7048e8',
  context: '#868e96',
  unclassified: '#495057',
  control: '#d6336c',
  omitted: '#adb5bd',
};

/** Line patterns cycled through the relations of one category. */
const PATTERNS = ['solid', 'dashed', 'dotted'] as const;
/** Arrow symbols cycled through the relations of one category. */
const ARROWS = ['triangle', 'vee', 'triangle-tee', 'diamond', 'square'] as const;

/** Relation names of each category, in the order of libs/core RELATION_ALIASES. */
const KNOWN: Record<string, readonly string[]> = {
  structure: ['contains', 'defined_in', 'defines', 'owns'],
  implementation: ['implemented_by', 'implements', 'inherits', 'inherits_from'],
  dependency: ['depends_on', 'imports'],
  execution: ['activates', 'calls', 'dispatches_to', 'launches'],
  data: ['reads', 'writes'],
  evidence: ['documents', 'governs', 'proves', 'tested_by', 'verifies'],
  context: ['relates_to'],
};

/** The visual encoding of one relation. */
export interface RelationStyle {
  color: string;
  pattern: (typeof PATTERNS)[number];
  arrow: (typeof ARROWS)[number];
}

/** The card title of a category (`Related` for anything unknown). */
export function categoryTitle(category: string): string {
  if (category === 'control') return 'Control flow';
  return CATEGORIES.find((c) => c.category === category)?.title ?? 'Related';
}

/** The color, line pattern and arrow symbol of `relation` in `category`. */
export function relationStyle(relation: string, category: string): RelationStyle {
  const color = CATEGORY_COLORS[category] ?? CATEGORY_COLORS.unclassified!;
  const known = KNOWN[category] ?? [];
  let index = known.indexOf(relation);
  if (index < 0) index = hash(relation);
  return { color, pattern: PATTERNS[index % PATTERNS.length]!, arrow: ARROWS[index % ARROWS.length]! };
}

function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) >>> 0;
  return h;
}

/** The wording of a relation read against its stored direction (an edge drawn target → source). */
const INVERSE: Record<string, string> = {
  imports: 'imported by', depends_on: 'dependency of', implements: 'implemented by', implemented_by: 'implements',
  inherits: 'inherited by', inherits_from: 'inherited by', defined_in: 'defines', defines: 'defined in', contains: 'contained in',
  owns: 'owned by', calls: 'called by', activates: 'activated by', dispatches_to: 'dispatched from', launches: 'launched by',
  documents: 'documented by', governs: 'governed by', proves: 'proved by', verifies: 'verified by', tested_by: 'tests',
  reads: 'read by', writes: 'written by', relates_to: 'relates to',
};

/** The label of `relation` drawn against its stored direction (`imports` → `imported by`; unknown relations get `(inverse)`). */
export function inverseLabel(relation: string): string {
  return INVERSE[relation] ?? `${relation} (inverse)`;
}

/** The sentence the key shows in every view: which way arrows point. */
export const DIRECTION_NOTE = 'Arrows run source → target in the relation\'s direction (A → B "imports": A imports B); an edge drawn the other way says so ("imported by").';
