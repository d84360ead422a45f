import { createBlockHeaderFromRLP } from '@ethereumjs/block'
import { type Account, bytesToHex, createAccountFromRLP } from '@ethereumjs/util'
import type { ChainRules } from '../chain/createChainRules.js'
import type { VerifiedHeader } from '../chain/parseHeader.js'

/** How one cache entry is written to, and read back from, a persistent store (structured-clone values). */
export type PersistentCodec = {
  /** The stored form of an entry, or undefined for entries that are not persisted. */
  encode(key: string, value: unknown): unknown | undefined
  /** The entry back from its stored form; undefined when it does not check out (it is then ignored). */
  decode(key: string, stored: unknown): unknown | undefined
}

type StoredHeader = { number: bigint; timestamp: bigint; rlp: Uint8Array }

const isBytes = (v: unknown): v is Uint8Array => v instanceof Uint8Array

/**
 * What the persistent cache keeps: only items keyed by something immutable, so they never go stale —
 * headers by hash (re-hashed when read back), accounts by (block hash, address), slots by (storage
 * root, slot), code by code hash, a block's raw transactions and receipts by block hash (checked
 * again against the header whenever they are used), final block numbers, the upstream's access-list
 * hints and where a transaction was mined (used only when the upstream cannot be asked). Everything
 * else (decoded blocks, in-flight proofs) lives in memory only.
 */
export function createPersistentCodec(rules: ChainRules): PersistentCodec {
  return {
    encode(key, value) {
      switch (key.slice(0, key.indexOf(':'))) {
        case 'h': {
          const h = value as VerifiedHeader
          return { number: h.number, timestamp: h.header.timestamp, rlp: h.header.serialize() } satisfies StoredHeader
        }
        case 'a':
          return value === null ? null : (value as Account).serialize()
        case 's':
        case 'c':
        case 'n':
        case 'al':
        case 'bal':
        case 'B':
        case 't':
        case 'R':
          return value
        default:
          return undefined
      }
    },
    decode(key, stored) {
      switch (key.slice(0, key.indexOf(':'))) {
        case 'h': {
          const s = stored as StoredHeader
          if (typeof s?.number !== 'bigint' || typeof s.timestamp !== 'bigint' || !isBytes(s.rlp)) return undefined
          const common = rules.commonFor(s.number, s.timestamp)
          const header = createBlockHeaderFromRLP(s.rlp, { common, skipConsensusFormatValidation: true })
          const hash = bytesToHex(header.hash())
          if (`h:${hash}` !== key) return undefined
          return { hash, number: header.number, header, common } satisfies VerifiedHeader
        }
        case 'a':
          return stored === null ? null : isBytes(stored) ? createAccountFromRLP(stored) : undefined
        case 's':
        case 'c':
          return isBytes(stored) ? stored : undefined
        case 'n':
          return typeof stored === 'string' ? stored : undefined
        default:
          return stored
      }
    },
  }
}
