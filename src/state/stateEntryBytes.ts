// What a state entry is estimated to weigh in the shared cache's byte budget, key included. Both
// state sources use the same figures, so one budget holds as many entries whichever is running.

/** An account (proven or not), or the mark of a proven absence. */
export const ACCOUNT_BYTES = 256

/** A storage slot's value. */
export const SLOT_BYTES = 192

/** A contract's code: its own length and the key's. */
export function codeBytes(code: Uint8Array): number {
  return code.length + 96
}
