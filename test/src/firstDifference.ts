/** The first path at which two JSON values differ, with both values (for readable test failures). */
export function firstDifference(a: unknown, b: unknown, path = '$'): string | undefined {
  if (JSON.stringify(a) === JSON.stringify(b)) return undefined
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const keysA = Object.keys(a)
    const keysB = Object.keys(b)
    for (const k of new Set([...keysA, ...keysB])) {
      const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`)
      if (d) return d
    }
    return `${path}: key order ${JSON.stringify(keysA)} vs ${JSON.stringify(keysB)}`
  }
  const show = (v: unknown) => (JSON.stringify(v) ?? 'undefined').slice(0, 300)
  return `${path}: ${show(a)} vs ${show(b)}`
}
