/** The page's whole UI toolkit: build elements from a tag, attributes and children. */
type Child = Node | string | number | false | null | undefined | Child[]
type Attrs = Record<string, string | number | boolean | undefined | ((e: Event) => void)> & {
  style?: string
  class?: string
}

export function h<tag extends keyof HTMLElementTagNameMap>(
  tag: tag,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[tag] {
  const el = document.createElement(tag)
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue
    if (typeof value === 'function') el.addEventListener(key.replace(/^on/, ''), value)
    else if (value === true) el.setAttribute(key, '')
    else el.setAttribute(key, String(value))
  }
  append(el, children)
  return el
}

function append(el: Element, children: Child[]) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue
    if (Array.isArray(child)) append(el, child)
    else el.append(child instanceof Node ? child : String(child))
  }
}

/** Replaces an element's content. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren()
  append(el, children)
}
