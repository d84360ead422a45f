import { hexToBytes } from '@ethereumjs/util'
import type { CodeRange } from './types.js'

/** A link placeholder of solc ≥ 0.5 (`__$<34 hex>$__`), 20 bytes once linked. */
const PLACEHOLDER = /__\$[0-9a-fA-F]{34}\$__/g

/**
 * Bytecode as a build output writes it (hex, `0x` or not, maybe with unlinked library placeholders):
 * the bytes with each placeholder zeroed, and the placeholders' ranges.
 */
export function parseBytecode(text: string): { code: Uint8Array; placeholders: CodeRange[] } {
  const hex = text.startsWith('0x') ? text.slice(2) : text
  const placeholders: CodeRange[] = []
  const clean = hex.replace(PLACEHOLDER, (m, offset: number) => {
    placeholders.push({ start: offset / 2, length: 20 })
    return '0'.repeat(m.length)
  })
  if (clean.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(clean)) throw new Error('bytecode is not hex')
  return { code: hexToBytes(`0x${clean}`), placeholders }
}

/** solc's `immutableReferences` (`{astId: [{start, length}, …]}`) as ranges. */
export function immutableRanges(refs: unknown): CodeRange[] {
  if (!refs || typeof refs !== 'object') return []
  const out: CodeRange[] = []
  for (const list of Object.values(refs as Record<string, unknown>)) {
    if (!Array.isArray(list)) continue
    for (const r of list as { start?: unknown; length?: unknown }[]) {
      if (typeof r.start === 'number' && typeof r.length === 'number') out.push({ start: r.start, length: r.length })
    }
  }
  return out.sort((a, b) => a.start - b.start)
}

/**
 * solc's `linkReferences` (`{file: {library: [{start, length}, …]}}`: "byte offsets into the bytecode.
 * Linking replaces the 20 bytes located there", solc's standard-JSON output description) as ranges.
 */
export function linkRanges(refs: unknown): CodeRange[] {
  if (!refs || typeof refs !== 'object') return []
  const out: CodeRange[] = []
  for (const byLib of Object.values(refs as Record<string, unknown>)) {
    if (!byLib || typeof byLib !== 'object') continue
    for (const list of Object.values(byLib as Record<string, unknown>)) {
      if (!Array.isArray(list)) continue
      for (const r of list as { start?: unknown; length?: unknown }[]) {
        if (typeof r?.start === 'number' && typeof r?.length === 'number')
          out.push({ start: r.start, length: r.length })
      }
    }
  }
  return out.sort((a, b) => a.start - b.start)
}

/** Ranges sorted by start, each start once (a placeholder also named by linkReferences counted once). */
export function mergeRanges(...lists: CodeRange[][]): CodeRange[] {
  const byStart = new Map<number, CodeRange>()
  for (const list of lists) for (const r of list) if (!byStart.has(r.start)) byStart.set(r.start, r)
  return [...byStart.values()].sort((a, b) => a.start - b.start)
}
