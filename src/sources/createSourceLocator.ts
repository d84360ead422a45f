import { decodeSourceMap, instructionIndexes, type SourceRange } from './decodeSourceMap.js'
import type { SourceContract } from './types.js'

/** Where a pc's instruction came from in the sources. */
export type SourceLocation = {
  file: string
  /** 1-based. */
  line: number
  /** 1-based, in bytes from the line's start (solc's offsets are UTF-8 bytes). */
  column: number
  /** Jump type of the instruction: into a function, out of one, or a plain one. */
  jump: 'i' | 'o' | '-'
  /** The source text of the range (empty when the text is not known). */
  text: string
}

export type SourceLocator = {
  /** The location of the instruction at `pc`, or undefined (no source, an immediate, unknown text). */
  at(pc: number): SourceLocation | undefined
  /** The raw source-map entry of the instruction at `pc`. */
  range(pc: number): SourceRange | undefined
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/**
 * Turns pcs of a contract's runtime code (or, `creation`, of its creation code: the constructor's)
 * into source locations through the source map of that code.
 */
export function createSourceLocator(contract: SourceContract, part: 'runtime' | 'creation' = 'runtime'): SourceLocator {
  const creation = part === 'creation' ? contract.creation : undefined
  const ranges = decodeSourceMap(creation ? creation.sourceMap : part === 'runtime' ? contract.sourceMap : '')
  const indexes = instructionIndexes(creation ? creation.code : contract.runtime)
  const files = new Map<number, { path: string; bytes: Uint8Array; lineStarts: number[] } | undefined>()
  const fileOf = (id: number) => {
    if (files.has(id)) return files.get(id)
    const src = contract.sources.get(id)
    let entry: { path: string; bytes: Uint8Array; lineStarts: number[] } | undefined
    if (src?.content !== undefined) {
      const bytes = encoder.encode(src.content)
      const lineStarts = [0]
      for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) lineStarts.push(i + 1)
      entry = { path: src.path, bytes, lineStarts }
    }
    files.set(id, entry)
    return entry
  }
  const range = (pc: number) => {
    const i = pc < indexes.length ? indexes[pc]! : -1
    return i < 0 ? undefined : ranges[i]
  }
  return {
    range,
    at(pc) {
      const r = range(pc)
      if (!r || r.f < 0 || r.s < 0) return undefined
      const file = fileOf(r.f)
      if (!file || r.s > file.bytes.length) return undefined
      // The last line start at or before s.
      let lo = 0
      let hi = file.lineStarts.length - 1
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1
        if (file.lineStarts[mid]! <= r.s) lo = mid
        else hi = mid - 1
      }
      const text = decoder.decode(file.bytes.subarray(r.s, r.s + Math.max(0, r.l)))
      return { file: file.path, line: lo + 1, column: r.s - file.lineStarts[lo]! + 1, jump: r.j, text }
    },
  }
}
