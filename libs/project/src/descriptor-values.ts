/**
 * Descriptor values the schema accepts but that can never work (issue 30, third trial 48): an
 * empty or repeated `[adapter].code` list, and `[vocabulary].relations` names outside the relation
 * grammar proposals use. Each is a `descriptor_invalid` error with the key and the item's line.
 */
import { UNSAFE_TITLE_CHARACTER } from '@docforge/core';
import type { DescriptorDocument } from '@docforge/protocol/descriptor';
import type { Checker } from './descriptor-check.js';
import { PROPOSABLE_RELATION } from './content.js';
import { BUILTIN_CODE_ADAPTERS } from './descriptor-types.js';

/**
 * Refuses a `[project].name` holding a control or bidi character, `code = []` (no adapter and not
 * `"none"`), an adapter listed twice (also one `"auto"` already includes), `"none"` beside another
 * adapter, and a declared relation name no node or changeset could use.
 * @throws DocforgeError descriptor_invalid naming the key and the item's line
 */
export function checkNeverWorking(check: Checker, doc: DescriptorDocument): void {
  // [project].name titles the root README without a level-1 heading: the title rule holds for it.
  const unsafe = typeof doc.project?.name === 'string' ? UNSAFE_TITLE_CHARACTER.exec(doc.project.name) : null;
  if (unsafe !== null) check.fail('project.name', `must hold no control or bidi character, got U+${unsafe[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
  const code = doc.adapter?.code;
  if (Array.isArray(code)) {
    if (code.length === 0) check.fail('adapter.code', 'must name at least one code adapter, or "none" for no code adapter, got []');
    const seen = new Set<string>();
    for (const id of code) {
      const twice = seen.has(id) ? `names "${id}" twice` : id !== 'auto' && id !== 'none' && seen.has('auto') ? `names "${id}", which "auto" before it already includes` : id === 'auto' && [...seen].some((s) => BUILTIN_CODE_ADAPTERS.includes(s)) ? `names "auto", which includes the adapters listed before it` : null;
      if (twice !== null) check.fail('adapter.code', `${twice}; list each adapter once`, check.itemLine('adapter.code', id, seen.has(id) ? 2 : 1));
      seen.add(id);
    }
    // "none" means no code adapter: beside another it contradicts the list (break-it trial of stop 49).
    if (seen.has('none') && seen.size > 1) check.fail('adapter.code', `names "none" (no code adapter) beside ${[...seen].filter((id) => id !== 'none').map((id) => `"${id}"`).join(', ')}; write code = "none", or list only the adapters to run`, check.itemLine('adapter.code', 'none'));
  }
  for (const relation of doc.vocabulary?.relations ?? []) {
    if (PROPOSABLE_RELATION.test(relation)) continue;
    const shown = JSON.stringify(relation.length > 80 ? `${relation.slice(0, 80)}…` : relation);
    check.fail('vocabulary.relations', `must list relation names of the form ${PROPOSABLE_RELATION.source} (a letter, then up to 63 letters, digits, "_", "." or "-"), got ${shown}`, check.itemLine('vocabulary.relations', relation));
  }
}
