/**
 * Trivial views explain themselves (issue 34 item 4): when a view draws the focus alone, a panel
 * over the canvas says what that view follows and offers the view that has content.
 */
import { button, el } from './dom.js';
import type { View } from './state.js';

/** What each graph view follows, and the view offered instead when it draws the focus alone. */
const EXPLANATIONS: Partial<Record<View, { follows: string; offer: View; why: string }>> = {
  flow: {
    follows: 'Flow follows semantic ancestry: structure, implementation and dependency relations (contains, defines, owns, implements, inherits, depends_on, imports), each upstream into the focus.',
    offer: 'web',
    why: 'Web also follows evidence and context (documents, verifies, tested_by, relates_to) and execution (calls), which is how documents usually connect.',
  },
  web: {
    follows: 'Web follows structure, dependency, execution, evidence and context relations into the focus, plus the members it owns and what it calls.',
    offer: 'nodes',
    why: 'Nodes shows every direct relation both ways.',
  },
  nodes: {
    follows: 'Nodes shows every stored relation of the focus, both ways.',
    offer: 'nodes',
    why: '',
  },
};

const VIEW_TITLES: Record<View, string> = { nodes: 'Nodes', flow: 'Flow', web: 'Web', logic: 'Logic' };

/**
 * Shows the explanation in `container` when `view` drew `drawn` ≤ 1 nodes (hides it otherwise);
 * `name` is the focus's label; `onView` opens the offered view.
 */
export function explainEmpty(container: HTMLElement, view: View, drawn: number, name: string, onView: (view: View) => void): void {
  const explanation = EXPLANATIONS[view];
  if (explanation === undefined || drawn < 0 || drawn > 1) {
    container.hidden = true;
    container.replaceChildren();
    return;
  }
  const offer = explanation.offer !== view
    ? [el('p', {}, explanation.why), button(`Open ${VIEW_TITLES[explanation.offer]}`, () => onView(explanation.offer), { 'data-view': explanation.offer, 'aria-label': `Open the ${VIEW_TITLES[explanation.offer]} view of ${name}` })]
    : [el('p', {}, 'It has none in this snapshot; go back to the overview to pick another node.')];
  container.replaceChildren(
    el('strong', {}, `${VIEW_TITLES[view]} of ${name} draws the focus alone.`),
    el('p', {}, `${explanation.follows} ${name} has none of these.`),
    ...offer,
  );
  container.dataset.view = view;
  container.hidden = false;
}
