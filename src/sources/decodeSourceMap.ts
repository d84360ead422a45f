/** One instruction's source range: byte offset `s` and length `l` in source `f` (-1: none), jump type `j`. */
export type SourceRange = { s: number; l: number; f: number; j: 'i' | 'o' | '-'; m: number }

/**
 * solc's compressed source map: `;`-separated entries, one per instruction, each `s:l:f:j:m` where
 * an empty or missing field repeats the previous entry's.
 */
export function decodeSourceMap(map: string): SourceRange[] {
  const out: SourceRange[] = []
  if (map === '') return out
  let prev: SourceRange = { s: -1, l: -1, f: -1, j: '-', m: 0 }
  for (const entry of map.split(';')) {
    const [s, l, f, j, m] = entry.split(':')
    const num = (v: string | undefined, fallback: number) => (v === undefined || v === '' ? fallback : Number(v))
    const jump = j === 'i' || j === 'o' || j === '-' ? j : prev.j
    prev = { s: num(s, prev.s), l: num(l, prev.l), f: num(f, prev.f), j: jump, m: num(m, prev.m) }
    out.push(prev)
  }
  return out
}

/** Each pc's instruction index (-1 inside PUSH immediates), for code of length n. */
export function instructionIndexes(code: Uint8Array): Int32Array {
  const index = new Int32Array(code.length).fill(-1)
  let n = 0
  for (let pc = 0; pc < code.length; pc++) {
    index[pc] = n++
    const op = code[pc]!
    if (op >= 0x60 && op <= 0x7f) pc += op - 0x5f
  }
  return index
}
