import type { StorageVariable } from '../../src/sources/decodeStorage.js'
import { readStorageBytes } from '../../src/sources/readStorageBytes.js'
import { readStorageValue } from '../../src/sources/readStorageValue.js'

/** One row of the stepper's storage: a variable (its value now, from the slot's word) or a raw slot. */
export type StepStorageRow = {
  /** The variable's name (`balanceOf[0x…]`, `config.fee`), or the slot. */
  name: string
  /**
   * Its value at this step: a value type decoded from its bytes of the slot's word; a `string`
   * (quoted) or `bytes` (hex) whole when short or when each of its data slots is in the step's
   * storage, else its length (`string, 120 bytes`); anything else (or a word no `bytes`/`string`
   * is stored as) the word.
   */
  value: string
  /** The raw slot and word (the hover). */
  slot: string
  word: string
  named: boolean
}

/** A slot or word as the struct logs give it (64 hex digits, with or without 0x) as `0x` and 64 lowercase hex digits. */
export const wordKey = (text: string) => `0x${text.replace(/^0x/i, '').toLowerCase().padStart(64, '0')}`

/**
 * The width in bytes of a value type by its Solidity name; undefined for others (their word is shown
 * as it is). An enum takes 1 byte: Solidity 0.8 allows at most 256 members.
 */
function widthOf(type: string): number | undefined {
  if (type === 'bool' || type.startsWith('enum ')) return 1
  if (type === 'address' || type === 'address payable' || type.startsWith('contract ')) return 20
  const int = /^u?int(\d*)$/.exec(type)
  if (int) return int[1] ? Number(int[1]) / 8 : 32
  const bytesN = /^bytes(\d+)$/.exec(type)
  if (bytesN) return Number(bytesN[1])
  return undefined
}

/**
 * The stepper's storage at a step (a struct log's `storage`: the slots the running contract read or
 * wrote so far, each slot's word now) named by the variables the source tracer named in that
 * account's storage (`slots`: namedSlots' of the step's storage context): each variable of a slot
 * (packed ones each), its value now read from its bytes of the word, a `bytes`/`string` as Solidity
 * stores it (a long one from its data slots in `storage`, else by length); slots no variable names stay raw.
 */
export function stepStorageRows(
  storage: Readonly<Record<string, string>>,
  slots: ReadonlyMap<string, readonly StorageVariable[]> | undefined,
): StepStorageRow[] {
  const rows: StepStorageRow[] = []
  /** The step's words by slot, for a long `bytes`/`string`'s data slots; made at the first. */
  let words: Map<bigint, bigint> | undefined
  const wordAt = (at: bigint) => {
    words ??= new Map(Object.entries(storage).map(([k, w]) => [BigInt(wordKey(k)), BigInt(wordKey(w))]))
    return words.get(at)
  }
  for (const [key, raw] of Object.entries(storage)) {
    const slot = wordKey(key)
    const word = wordKey(raw)
    const vars = slots?.get(slot) ?? []
    if (vars.length === 0) {
      rows.push({ name: slot, value: word, slot, word, named: false })
      continue
    }
    for (const v of [...vars].sort((a, b) => a.offset - b.offset)) {
      let value = word
      const width = widthOf(v.type)
      if (v.type === 'string' || v.type === 'bytes') {
        const read = readStorageBytes(v.type, BigInt(slot), BigInt(word), wordAt)
        if (read) value = read.text ?? `${v.type}, ${read.length} bytes`
      } else if (width !== undefined && v.offset + width <= 32)
        value = readStorageValue({ encoding: 'inplace', label: v.type, numberOfBytes: width }, BigInt(word), v.offset)
      rows.push({ name: v.name, value, slot, word, named: true })
    }
  }
  // Named first, in name order; then raw slots in slot order.
  return rows.sort((a, b) => Number(b.named) - Number(a.named) || a.name.localeCompare(b.name))
}

/**
 * The storage context (the account whose storage runs: the caller's under DELEGATECALL and CALLCODE)
 * of a step at `depth`: the frame of that depth that started last at or before it (the step index's
 * `[step, depth, context]` frames, in step order).
 */
export function storageContextAt(
  frames: readonly (readonly [number, number, string])[],
  step: number,
  depth: number,
): string | undefined {
  let found: string | undefined
  for (const [start, d, context] of frames) {
    if (start > step) break
    if (d === depth) found = context
  }
  return found?.toLowerCase()
}
