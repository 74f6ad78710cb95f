/**
 * The page's state and its URL form: the focus node and the view are recorded in the fragment
 * (`#focus=<id>&view=<view>`) so a link reopens the same place; hidden nodes stay client-side.
 */

/** The four views of the view switch. */
export type View = 'nodes' | 'flow' | 'web' | 'logic';

/** Every view, in switch order. */
export const VIEWS: readonly View[] = ['nodes', 'flow', 'web', 'logic'];

/** Where the page is: the focus (root) node and the view. */
export interface Place {
  focus: string | null;
  view: View;
}

function asView(value: string | null): View {
  return (VIEWS as readonly string[]).includes(value ?? '') ? (value as View) : 'nodes';
}

/** The place recorded in `hash`; falls back to the `focus`/`view` query parameters of `search`. */
export function parsePlace(hash: string, search: string): Place {
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  const query = new URLSearchParams(search);
  const focus = fragment.get('focus') ?? query.get('focus');
  return { focus: focus && focus.length > 0 ? focus : null, view: asView(fragment.get('view') ?? query.get('view')) };
}

/** The fragment that records `place`. */
export function placeHash(place: Place): string {
  const params = new URLSearchParams();
  if (place.focus !== null) params.set('focus', place.focus);
  params.set('view', place.view);
  return `#${params.toString()}`;
}
