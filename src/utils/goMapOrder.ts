/**
 * An object's own keys in the order Go's encoding/json writes a map's (sorted as byte strings): the
 * wire order of what geth and the reference daemon marshal as `map[string]interface{}` — blocks,
 * headers and receipts among them. Only the top level is reordered.
 */
export function goMapOrder<value>(object: Record<string, value>): Record<string, value> {
  const out: Record<string, value> = {}
  for (const key of Object.keys(object).sort()) out[key] = object[key]!
  return out
}
