import type { StorageVariable } from '../../src/sources/decodeStorage.js'
import { readStorageValue } from '../../src/sources/readStorageValue.js'

/** One row of the stepper's storage: a variable (its value now, from the slot's word) or a raw slot. */
export type StepStorageRow = {
  /** The variable's name (`balanceOf[0x…]`, `config.fee`), or the slot. */
  name: string
  /** Its value at this step: a value type decoded from its bytes of the slot's word, else the word. */
  value: string
  /** The raw slot and word (the hover). */
  slot: string
  word: string
  named: boolean
}

/** A slot or word as the struct logs give it (64 hex digits, with or without 0x) as `0x` and 64 lowercase hex digits. */
export const wordKey = (text: string) => `0x${text.replace(/^0x/i, '').toLowerCase().padStart(64, '0')}`

/** The width in bytes of a value type by its Solidity name; undefined for others (their word is shown as it is). */
function widthOf(type: string): number | undefined {
  if (type === 'bool') return 1
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
 * (packed ones each), its value now read from its bytes of the word; slots no variable names stay raw.
 */
export function stepStorageRows(
  storage: Readonly<Record<string, string>>,
  slots: ReadonlyMap<string, readonly StorageVariable[]> | undefined,
): StepStorageRow[] {
  const rows: StepStorageRow[] = []
  for (const [key, raw] of Object.entries(storage)) {
    const slot = wordKey(key)
    const word = wordKey(raw)
    const vars = slots?.get(slot) ?? []
    if (vars.length === 0) {
      rows.push({ name: slot, value: word, slot, word, named: false })
      continue
    }
    for (const v of [...vars].sort((a, b) => a.offset - b.offset)) {
      const width = widthOf(v.type)
      const value =
        width !== undefined && v.offset + width <= 32
          ? readStorageValue({ encoding: 'inplace', label: v.type, numberOfBytes: width }, BigInt(word), v.offset)
          : word
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
