import { bytesToBigInt, bytesToHex, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import { keccak256 } from '../../utils/keccak256.js'
import type { VerifiedHeader } from '../../chain/parseHeader.js'
import type { Engine } from '../../exec/createEngine.js'
import { ServerRpcError } from '../../errors/rpc.js'
import { RangeVerificationError } from '../../errors/state.js'
import { UpstreamRpcError } from '../../errors/upstream.js'
import type { Hex } from '../../types/hex.js'
import { defineMethod } from '../defineMethod.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { ParamError, optional, required } from '../params.js'
import { parseAddress, parseData } from '../parsers.js'

/**
 * The reference's tag check names its `latest` sentinel, common.BytesToHash("latest"), in its words.
 */
const WRONG_TAG = `listStorageKeys wrong block tag or number: must be '0x${'0'.repeat(52)}6c6174657374' ('latest')`

/** Slots asked for per debug_storageRangeAt page, and the most enumerated in one request. */
const PAGE = 1024
export const LIST_STORAGE_KEYS_MAX_SLOTS = 100_000

type Range = { storage?: Record<string, { key: string | null; value: string }>; nextKey: string | null }

/** Go's `int` as a bare JSON number (negative allowed: the reference's iterator takes -1 as no limit). */
function parseGoInt(raw: unknown): number {
  if (typeof raw !== 'number' || !Number.isSafeInteger(raw))
    throw new ParamError(
      `json: cannot unmarshal ${typeof raw === 'string' ? 'string' : JSON.stringify(raw)} into Go value of type int`,
    )
  return raw
}

/** Lexicographic byte order, a shorter prefix first (the order of the reference's storage keys). */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!
  return a.length - b.length
}

/**
 * Every slot key of `address` at the end of `block`, as the upstream's debug_storageRangeAt pages
 * list them (at the block's last transaction index: the state after it), each key checked against
 * the hashed key it is filed under. Values are checked by the caller, for the keys it returns.
 */
async function enumerateKeys(
  engine: Engine,
  block: VerifiedHeader,
  address: Hex,
  txCount: number,
): Promise<Uint8Array[]> {
  const keys: Uint8Array[] = []
  // One line naming the block; the hash, address and slot are the error's data.
  const where = `block ${block.number}`
  let start: string | null = '0x00'
  while (start !== null) {
    let range: Range
    try {
      range = await engine.upstream.request<Range>('debug_storageRangeAt', [block.hash, txCount, address, start, PAGE])
    } catch (err) {
      if (err instanceof UpstreamRpcError && err.code === -32601) {
        throw new ServerRpcError(
          'parity_listStorageKeys needs an upstream that enumerates storage, and this one does not offer debug_storageRangeAt (Merkle proofs alone cannot list slots)',
        )
      }
      if (err instanceof UpstreamRpcError)
        throw new ServerRpcError(
          `parity_listStorageKeys: the upstream could not enumerate the storage of ${address} at the end of block ${block.number} ${block.hash} (debug_storageRangeAt: ${err.message})`,
        )
      throw err
    }
    for (const [hashed, entry] of Object.entries(range.storage ?? {})) {
      if (entry.key === null || entry.key === undefined) {
        throw new RangeVerificationError(`${where}: the upstream lists slot ${hashed} without its key`, {
          facts: { block, address },
        })
      }
      const key = setLengthLeft(hexToBytes(entry.key as Hex), 32)
      if (bytesToHex(keccak256(key)) !== hashed.toLowerCase()) {
        throw new RangeVerificationError(
          `${where}: the upstream files the slot under ${hashed}, which is not its hash`,
          {
            facts: { block, address, slot: bytesToHex(key) },
          },
        )
      }
      keys.push(key)
    }
    if (keys.length > LIST_STORAGE_KEYS_MAX_SLOTS)
      throw new ServerRpcError(
        `parity_listStorageKeys: ${address} has more than ${LIST_STORAGE_KEYS_MAX_SLOTS} slots, too many to enumerate and order here`,
      )
    // A page that does not move forward would loop for ever.
    if (range.nextKey !== null && range.nextKey !== undefined && BigInt(range.nextKey) <= BigInt(start))
      throw new RangeVerificationError(
        `${where}: the upstream's next key ${range.nextKey} does not move past the start`,
        {
          facts: { block, address },
        },
      )
    start = range.nextKey ?? null
  }
  return keys
}

/**
 * parity_listStorageKeys(address, quantity, offset?, block): the reference daemon's semantics
 * (rpc/jsonrpc/parity_api.go): only at `latest`; `acc not found` for an account that does not exist;
 * the account's slot keys in ascending order of the key itself (not its hash) from `offset` on
 * (inclusive: every key ≥ offset byte-wise), at most `quantity` of them (a negative one: no limit).
 * Proofs cannot list slots, so the keys come from the upstream's debug_storageRangeAt (which lists
 * them in hashed order: all pages are read and ordered here, at most 100,000 slots); each returned
 * key's value is proven non-zero against the account's verified storage root. A slot the upstream
 * leaves out cannot be detected this way.
 */
export const listStorageKeys = defineMethod({
  name: 'parity_listStorageKeys',
  params: [required(parseAddress), required(parseGoInt), optional(parseData), required(parseBlockParameter)],
  async run(engine, [address, quantity, offset, selector]): Promise<Hex[]> {
    if (selector.kind !== 'tag' || selector.tag !== 'latest') throw new ServerRpcError(WRONG_TAG)
    const block = await engine.headers.resolve(selector)
    const account = await engine.source.getAccount(block, address)
    if (account === undefined) throw new ServerRpcError('acc not found')
    if (quantity === 0) return []
    const txCount = Number(
      await engine.upstream.request<string>('eth_getBlockTransactionCountByHash', [block.hash]).catch(() => '0x0'),
    )
    const from = offset === undefined ? new Uint8Array() : hexToBytes(offset)
    const keys = (await enumerateKeys(engine, block, address, txCount))
      .filter((k) => compareBytes(k, from) >= 0)
      .sort(compareBytes)
    const chosen = quantity < 0 ? keys : keys.slice(0, quantity)
    await engine.source.prefetch(block, [{ address, storageKeys: chosen.map((k) => bytesToHex(k) as Hex) }])
    for (const key of chosen) {
      const value = await engine.source.getStorage(block, address, bytesToHex(key) as Hex)
      if (bytesToBigInt(value) === 0n)
        throw new RangeVerificationError(
          `block ${block.number}: the upstream lists a slot the verified state holds empty`,
          { facts: { block, address, slot: bytesToHex(key) } },
        )
    }
    return chosen.map((k) => bytesToHex(k) as Hex)
  },
})
