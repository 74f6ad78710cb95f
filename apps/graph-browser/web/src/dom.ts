/** Small DOM helpers: every text goes through text nodes, never through innerHTML. */

/** Creates `<tag>` with attributes and children (strings become text nodes). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, value);
  for (const child of children) element.append(child);
  return element;
}

/** A `<button type="button">` with a visible text, an optional accessible label and a click handler. */
export function button(text: string, onClick: () => void, attrs: Record<string, string> = {}): HTMLButtonElement {
  const element = el('button', { type: 'button', ...attrs }, text);
  element.addEventListener('click', onClick);
  return element;
}

/** The element with `id`; throws when the page template lacks it. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`page element #${id} is missing`);
  return element as T;
}
