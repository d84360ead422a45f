import { createBlockHeaderFromRLP } from '@ethereumjs/block'
import { type Account, bytesToHex, createAccountFromRLP } from '@ethereumjs/util'
import type { ChainRules } from '../chain/createChainRules.js'
import type { VerifiedHeader } from '../chain/parseHeader.js'
import type { BorSnapshot } from '../chain/bor/applyBorHeaders.js'
import { decodeBorSnapshot, encodeBorSnapshot } from '../chain/bor/storedBorSnapshot.js'
import { keccak_256 as keccak256 } from '@noble/hashes/sha3.js'
import { cacheKeyKind, cacheKeys } from '../utils/cacheKeys.js'

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
 * root, slot), code by code hash (re-hashed too), a block's raw transactions and receipts by block hash (checked
 * again against the header whenever they are used), final block numbers, where a transaction was
 * mined (used only when the upstream cannot be asked), and hints that only steer what is fetched:
 * the upstream's access lists and the footprints of calls run before; on a Bor chain, validator
 * snapshots by block hash (computed from verified headers). Everything else (decoded
 * blocks, in-flight proofs) lives in memory only.
 */
export function createPersistentCodec(rules: ChainRules): PersistentCodec {
  return {
    encode(key, value) {
      // Every kind is named (the default cannot be reached), so a new kind fails to compile until it is given a stored form or none.
      const kind = cacheKeyKind(key)
      switch (kind) {
        case 'header': {
          const h = value as VerifiedHeader
          return { number: h.number, timestamp: h.header.timestamp, rlp: h.header.serialize() } satisfies StoredHeader
        }
        case 'account':
          return value === null ? null : (value as Account).serialize()
        case 'slot':
        case 'code':
        case 'number':
        case 'callAccessList':
        case 'blockAccessLists':
        case 'rawBlock':
        case 'transaction':
        case 'rawReceipts':
        case 'footprint':
        case 'calleeCode':
          return value
        case 'borSnapshot':
          return encodeBorSnapshot(value as BorSnapshot)
        case 'trieNode':
          return value
        // In memory only: decoded blocks, in-flight proofs, unverified state, checkpoint links, token metadata.
        case 'tokenMetadata':
        case 'block':
        case 'verifiedBlock':
        case 'proof':
        case 'unverifiedAccount':
        case 'unverifiedSlot':
        case 'linked':
        case 'unknown':
          return undefined
        default:
          return kind satisfies never
      }
    },
    decode(key, stored) {
      switch (cacheKeyKind(key)) {
        case 'header': {
          const s = stored as StoredHeader
          if (typeof s?.number !== 'bigint' || typeof s.timestamp !== 'bigint' || !isBytes(s.rlp)) return undefined
          const common = rules.commonFor(s.number, s.timestamp)
          const header = createBlockHeaderFromRLP(s.rlp, { common, skipConsensusFormatValidation: true })
          const hash = bytesToHex(header.hash())
          if (cacheKeys.header(hash) !== key) return undefined
          return { hash, number: header.number, header, common } satisfies VerifiedHeader
        }
        case 'account':
          return stored === null ? null : isBytes(stored) ? createAccountFromRLP(stored) : undefined
        case 'slot':
          return isBytes(stored) ? stored : undefined
        // Code and trie nodes hash to their key (checked: a shared tier is not trusted).
        case 'code':
        case 'trieNode':
          return isBytes(stored) && key.endsWith(`:${bytesToHex(keccak256(stored))}`) ? stored : undefined
        case 'number':
          return typeof stored === 'string' ? stored : undefined
        case 'borSnapshot': {
          const snapshot = decodeBorSnapshot(stored)
          return snapshot && cacheKeys.borSnapshot(snapshot.hash) === key ? snapshot : undefined
        }
        default:
          return stored
      }
    },
  }
}
