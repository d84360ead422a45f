import { createBlockHeaderFromRLP } from '@ethereumjs/block'
import { type Account, bytesToHex, createAccountFromRLP } from '@ethereumjs/util'
import type { ChainRules } from '../chain/createChainRules.js'
import type { VerifiedHeader } from '../chain/parseHeader.js'
import type { BorSnapshot } from '../chain/bor/applyBorHeaders.js'
import { decodeBorSnapshot, encodeBorSnapshot } from '../chain/bor/storedBorSnapshot.js'
import { keccak256 } from '../utils/keccak256.js'
import { cacheKeyKind, cacheKeys } from '../utils/cacheKeys.js'
import { type HintKind, checkHint } from './checkHint.js'

/** How one cache entry is written to, and read back from, a persistent store (structured-clone values). */
export type PersistentCodec = {
  /** The stored form of an entry, or undefined for entries that are not persisted. */
  encode(key: string, value: unknown): unknown | undefined
  /** The entry back from its stored form; undefined when it does not check out (it is then ignored). */
  decode(key: string, stored: unknown): unknown | undefined
}

type StoredHeader = { number: bigint; timestamp: bigint; rlp: Uint8Array }

const isBytes = (v: unknown): v is Uint8Array => v instanceof Uint8Array

/** loadBlock's raw block: the upstream's block JSON (its transactions a list) and, unless left out, receipt summaries. */
const isStoredRawBlock = (v: unknown): boolean => {
  const raw = v as { json?: unknown; receipts?: unknown } | null
  const json = raw?.json as { transactions?: unknown } | null | undefined
  return (
    typeof raw === 'object' &&
    raw !== null &&
    typeof json === 'object' &&
    json !== null &&
    Array.isArray(json.transactions) &&
    (raw.receipts === undefined || Array.isArray(raw.receipts))
  )
}

/**
 * What the persistent cache keeps: only items keyed by something immutable, so they never go stale —
 * headers by hash (re-hashed when read back), accounts by (block hash, address), slots by (storage
 * root, slot), code by code hash (re-hashed too), a block's raw transactions by block hash (checked
 * again against the header where they are used: loadBlock, fetchVerifiedBlock) and its receipts
 * (checked against the header's receiptsRoot by a shared tier, which does not trust its store),
 * final block numbers, where a transaction was mined (used only when the upstream cannot be asked),
 * and hints that only steer what is fetched: the upstream's access lists and the footprints of
 * calls run before (only well-formed ones within their bound, checkHint, both ways); on a Bor
 * chain, validator snapshots by block hash (computed from verified headers). Everything else
 * (decoded blocks, in-flight proofs) lives in memory only. Which of these a store keeps is its own
 * choice (PersistentStore.accepts): a shared tier keeps only what it can check (createSharedTier).
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
        case 'rawBlock':
        case 'transaction':
        case 'rawReceipts':
          return value
        // Hints: only well-formed ones within their bound (what a reader refuses is not written).
        case 'callAccessList':
        case 'blockAccessLists':
        case 'footprint':
        case 'calleeCode':
          return checkHint(kind, value) ? value : undefined
        case 'borSnapshot':
          return encodeBorSnapshot(value as BorSnapshot)
        // A Sourcify answer's text: matched against the verified code wherever it is used, never trusted.
        case 'sourcify':
          return typeof value === 'string' ? value : undefined
        case 'trieNode':
          return value
        // In memory only: decoded blocks, in-flight proofs, unverified state, checkpoint links, token metadata, touch indexes.
        case 'tokenMetadata':
        case 'touchedBy':
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
        // Receipts and raw blocks are checked against their header where they are used (and by a
        // shared tier when read); here only their shape.
        case 'rawReceipts':
          return Array.isArray(stored) && stored.every((r) => isBytes(r) && r.length > 0) ? stored : undefined
        case 'rawBlock':
          return isStoredRawBlock(stored) ? stored : undefined
        case 'callAccessList':
        case 'blockAccessLists':
        case 'footprint':
        case 'calleeCode':
          return checkHint(cacheKeyKind(key) as HintKind, stored) ? stored : undefined
        case 'borSnapshot': {
          const snapshot = decodeBorSnapshot(stored)
          return snapshot && cacheKeys.borSnapshot(snapshot.hash) === key ? snapshot : undefined
        }
        case 'sourcify':
          return typeof stored === 'string' ? stored : undefined
        default:
          return stored
      }
    },
  }
}
