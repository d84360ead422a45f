import { RLP } from '@ethereumjs/rlp'
import { bytesToHex } from '@ethereumjs/util'
import { keccak256 } from '../utils/keccak256.js'
import { cacheKeys } from '../utils/cacheKeys.js'

/** The roots a header commits to that a shared tier checks entries against. */
export type HeaderRoots = { stateRoot: Uint8Array; transactionsRoot: Uint8Array; receiptsRoot: Uint8Array }

/**
 * The roots of a header kept under `key` in its stored form (see createPersistentCodec: `{number,
 * timestamp, rlp}`), once its RLP hashes to the key's hash; undefined when it does not, or is not a
 * header's stored form. Needs no chain rules: the roots are the RLP list's 4th to 6th fields in
 * every fork (and on Bor).
 */
export function storedHeaderRoots(key: string, stored: unknown): HeaderRoots | undefined {
  const rlp = (stored as { rlp?: unknown } | null)?.rlp
  if (!(rlp instanceof Uint8Array) || key !== cacheKeys.header(bytesToHex(keccak256(rlp)))) return undefined
  try {
    const fields = RLP.decode(rlp)
    if (!Array.isArray(fields)) return undefined
    const [stateRoot, transactionsRoot, receiptsRoot] = fields.slice(3, 6)
    const root = (v: unknown): v is Uint8Array => v instanceof Uint8Array && v.length === 32
    return root(stateRoot) && root(transactionsRoot) && root(receiptsRoot)
      ? { stateRoot, transactionsRoot, receiptsRoot }
      : undefined
  } catch {
    return undefined
  }
}
