import { KECCAK256_NULL, bytesToHex, equalsBytes } from '@ethereumjs/util'
import type { Account } from '@ethereumjs/util'
import type { Hex } from '../../types/hex.js'
import { cacheKeys } from '../../utils/cacheKeys.js'
import type { Engine } from '../createEngine.js'

/** What a preview reads of a token besides balances: its symbol, name, decimals, and whether it says it is an ERC-1155. */
export type TokenMetadata = { symbol: string | null; name: string | null; decimals: number | null; erc1155: boolean }

/**
 * Token metadata kept in the engine's cache (its one byte-bounded LRU, memory only), by (address,
 * code hash): a token seen once is not asked its `symbol()`, `name()`, `decimals()` and ERC-1155
 * `supportsInterface` again while its code is the same — a preview at a new block then reads only
 * balances and allowances. Keyed by address too, not by code hash alone: two deployments of the same
 * code keep different names in storage (OpenZeppelin's ERC-20).
 *
 * What it assumes: a token's metadata is set once (in its constructor or initializer) and never
 * changed while its code stays the same. A token that renames itself (an owner's setter, a proxy's
 * implementation swapped behind the same proxy code) keeps the name first read until the entry is
 * evicted or edgetrace restarts.
 */
/**
 * Per engine, the code hash each token's metadata was last cached under, by address (memory only, at
 * most MAX_KNOWN addresses): which tokens a preview need not list metadata reads for before their
 * code at the block is proven.
 */
const lastCode = new WeakMap<Engine, Map<string, string>>()
const MAX_KNOWN = 10_000

export function createTokenMetadataCache(engine: Engine) {
  let known = lastCode.get(engine)
  if (!known) lastCode.set(engine, (known = new Map()))
  const codes = known
  /** The cache key of a token, by its code where the calls start; undefined without code (created by the calls). */
  const keyOf = (address: Hex, account: Account | undefined) =>
    account && !equalsBytes(account.codeHash, KECCAK256_NULL)
      ? cacheKeys.tokenMetadata(address.toLowerCase(), bytesToHex(account.codeHash))
      : undefined
  return {
    keyOf,
    /**
     * Whether the token's metadata is cached under the code it had when last read — a bet that its
     * code has not changed since (if it has, its metadata is read as without the cache; only the
     * reads' prefetch is skipped).
     */
    cachedAt(address: Hex): boolean {
      const a = address.toLowerCase()
      const codeHash = codes.get(a)
      return codeHash !== undefined && engine.cache.get(cacheKeys.tokenMetadata(a, codeHash)) !== undefined
    },
    get: (key: string | undefined) => (key === undefined ? undefined : engine.cache.get<TokenMetadata>(key)),
    set(key: string | undefined, metadata: TokenMetadata) {
      if (key === undefined) return
      const [, address, codeHash] = key.split(':')
      if (codes.size >= MAX_KNOWN) codes.clear()
      codes.set(address!, codeHash!)
      engine.cache.set(
        key,
        metadata,
        160 + key.length + 2 * ((metadata.symbol?.length ?? 0) + (metadata.name?.length ?? 0)),
      )
    },
  }
}
