/**
 * The one vocabulary of cache keys. Every key the shared cache (and the persistent store behind it)
 * sees is built here and told apart here, so a key is spelled once: a typo in a prefix used to make
 * an entry silently skip persistence, or be decoded as something else.
 *
 * The strings are a storage format: IndexedDB data written by earlier versions is read back under
 * these exact keys, so a prefix or a field order never changes. A new kind gets a new prefix.
 * Fields are separated by ':'; none of them holds a colon except the last field of a call's
 * access-list key (the call's JSON), which is why parsing splits at most as many times as a kind
 * has fields.
 */

/** Every kind of key, by its prefix. */
const PREFIXES = {
  /** A verified header, by block hash (persisted). */
  header: 'h',
  /** The hash of a final block number, optionally under a checkpoint's hash (persisted). */
  number: 'n',
  /** A header linked to the checkpoint, by hash → its number (memory only). */
  linked: 'lk',
  /** A proven account (or null when absent), by (block hash, address) (persisted). */
  account: 'a',
  /** A proven storage slot, by (storage root, slot) (persisted). */
  slot: 's',
  /** Contract code, by code hash (persisted). */
  code: 'c',
  /** An in-flight proof request, by (block hash, address, slots) (memory only, single-flight). */
  proof: 'p',
  /** An unverified account, by (block hash, address) (memory only). */
  unverifiedAccount: 'ua',
  /** An unverified slot, by (block hash, address, slot) (memory only). */
  unverifiedSlot: 'us',
  /** A decoded block, by block hash (memory only). */
  block: 'b',
  /** A whole block checked against its header (eth_* reads), by block hash (memory only). */
  verifiedBlock: 'vb',
  /** A block's raw transactions and receipt summaries, by block hash (persisted). */
  rawBlock: 'B',
  /** A block's EIP-2718 receipts, by block hash (persisted). */
  rawReceipts: 'R',
  /** Where a transaction was mined, by transaction hash (persisted). */
  transaction: 't',
  /** The upstream's access list for a call, by (block hash, call JSON) (persisted). */
  callAccessList: 'al',
  /** The upstream's access lists for a block's first transactions, by (block hash, count) (persisted). */
  blockAccessLists: 'bal',
  /** What a call to some code with some selector read last time, by (code hash, selector) (persisted). */
  footprint: 'fp',
  /** The code hash an address had when a call to it was last run, by address (persisted). */
  calleeCode: 'cc',
  /** A Bor chain's validator snapshot after a block, by block hash (persisted). */
  borSnapshot: 'bs',
  /** A token's symbol, name, decimals (and whether it is an ERC-1155), by (address, code hash) (memory only). */
  tokenMetadata: 'tm',
  /** A Merkle-Patricia trie node of a verified proof, by its keccak hash (the shared tier only: createSharedTier). */
  trieNode: 'tn',
  /** The addresses each transaction of a replayed block touches (ots searches), by block hash (memory only). */
  touchedBy: 'tb',
  /**
   * What a Sourcify server answered for a contract, its JSON text, by (chain id, runtime code hash) (persisted:
   * never trusted, matched against the verified code each time it is used).
   */
  sourcify: 'sfy',
} as const

export type CacheKeyKind = keyof typeof PREFIXES

const KINDS = new Map<string, CacheKeyKind>(
  Object.entries(PREFIXES).map(([kind, prefix]) => [prefix, kind as CacheKeyKind]),
)

/** A key's parts, by kind: what its builder was given (numbers as bigints, a proof's slots as a list). */
export type ParsedCacheKey =
  | { kind: 'header'; hash: string }
  | { kind: 'number'; number: bigint; checkpoint?: string }
  | { kind: 'linked'; hash: string }
  | { kind: 'account'; blockHash: string; address: string }
  | { kind: 'slot'; storageRoot: string; slot: string }
  | { kind: 'code'; codeHash: string }
  | { kind: 'proof'; blockHash: string; address: string; slots: string[] }
  | { kind: 'unverifiedAccount'; blockHash: string; address: string }
  | { kind: 'unverifiedSlot'; blockHash: string; address: string; slot: string }
  | { kind: 'block'; hash: string }
  | { kind: 'verifiedBlock'; hash: string }
  | { kind: 'rawBlock'; hash: string }
  | { kind: 'rawReceipts'; hash: string }
  | { kind: 'transaction'; hash: string }
  | { kind: 'callAccessList'; blockHash: string; call: string }
  | { kind: 'blockAccessLists'; blockHash: string; count: number }
  | { kind: 'footprint'; codeHash: string; selector: string }
  | { kind: 'calleeCode'; address: string }
  | { kind: 'borSnapshot'; hash: string }
  | { kind: 'tokenMetadata'; address: string; codeHash: string }
  | { kind: 'trieNode'; hash: string }
  | { kind: 'touchedBy'; hash: string }
  | { kind: 'sourcify'; chainId: bigint; codeHash: string }
  | { kind: 'unknown'; key: string }

/** The builders, one per kind. Hashes and roots are hex strings, passed as the caller holds them (not re-cased). */
export const cacheKeys = {
  header: (hash: string) => `h:${hash}`,
  /** With a checkpoint, a number's hash is filed under the checkpoint's name (never mixed with one cached without it). */
  number: (number: bigint, checkpoint?: string) =>
    checkpoint === undefined ? `n:${number}` : `n:${checkpoint}:${number}`,
  linked: (hash: string) => `lk:${hash}`,
  account: (blockHash: string, address: string) => `a:${blockHash}:${address}`,
  slot: (storageRoot: string, slot: string) => `s:${storageRoot}:${slot}`,
  code: (codeHash: string) => `c:${codeHash}`,
  proof: (blockHash: string, address: string, slots: readonly string[]) =>
    `p:${blockHash}:${address}:${slots.join(',')}`,
  unverifiedAccount: (blockHash: string, address: string) => `ua:${blockHash}:${address}`,
  unverifiedSlot: (blockHash: string, address: string, slot: string) => `us:${blockHash}:${address}:${slot}`,
  block: (hash: string) => `b:${hash}`,
  verifiedBlock: (hash: string) => `vb:${hash}`,
  rawBlock: (hash: string) => `B:${hash}`,
  rawReceipts: (hash: string) => `R:${hash}`,
  transaction: (hash: string) => `t:${hash}`,
  /** `call` is the call's arguments as JSON (the caller serializes them, so this layer needs no call types). */
  callAccessList: (blockHash: string, call: string) => `al:${blockHash}:${call}`,
  blockAccessLists: (blockHash: string, count: number) => `bal:${blockHash}:${count}`,
  /** `selector` is the call data's first four bytes as hex ('0x' for less). */
  footprint: (codeHash: string, selector: string) => `fp:${codeHash}:${selector}`,
  calleeCode: (address: string) => `cc:${address}`,
  borSnapshot: (hash: string) => `bs:${hash}`,
  tokenMetadata: (address: string, codeHash: string) => `tm:${address}:${codeHash}`,
  trieNode: (hash: string) => `tn:${hash}`,
  touchedBy: (hash: string) => `tb:${hash}`,
  sourcify: (chainId: bigint, codeHash: string) => `sfy:${chainId}:${codeHash}`,
} satisfies Record<CacheKeyKind, (...args: never[]) => string>

/**
 * The kind of a key, from its prefix alone ('unknown' for a prefix not listed here). Cheap (no
 * split), for the hot path: the persistent codec asks it on every cache write.
 */
export function cacheKeyKind(key: string): CacheKeyKind | 'unknown' {
  const colon = key.indexOf(':')
  return (colon < 0 ? undefined : KINDS.get(key.slice(0, colon))) ?? 'unknown'
}

/** A key back into its kind and parts; 'unknown' for an unlisted prefix or a key whose fields do not fit its kind. */
export function parseCacheKey(key: string): ParsedCacheKey {
  const kind = cacheKeyKind(key)
  const unknown = { kind: 'unknown', key } as const
  if (kind === 'unknown') return unknown
  const rest = key.slice(PREFIXES[kind].length + 1)
  // Exactly `count` colon-separated fields; only a call's JSON (the last field of its kind) may hold colons.
  const fields = (count: number): string[] | undefined => {
    const parts = rest.split(':')
    if (kind === 'callAccessList' && parts.length > count)
      return [...parts.slice(0, count - 1), parts.slice(count - 1).join(':')]
    return parts.length === count ? parts : undefined
  }
  const integer = (text: string): bigint | undefined => (/^(0|[1-9][0-9]*)$/.test(text) ? BigInt(text) : undefined)
  switch (kind) {
    case 'header':
    case 'linked':
    case 'block':
    case 'verifiedBlock':
    case 'rawBlock':
    case 'rawReceipts':
    case 'transaction':
    case 'borSnapshot':
    case 'trieNode':
    case 'touchedBy':
      return fields(1) ? { kind, hash: rest } : unknown
    case 'code':
      return fields(1) ? { kind, codeHash: rest } : unknown
    case 'calleeCode':
      return fields(1) ? { kind, address: rest } : unknown
    case 'footprint': {
      const f = fields(2)
      return f ? { kind, codeHash: f[0]!, selector: f[1]! } : unknown
    }
    case 'sourcify': {
      const f = fields(2)
      const chainId = f && integer(f[0]!)
      return f && chainId !== undefined ? { kind, chainId, codeHash: f[1]! } : unknown
    }
    case 'tokenMetadata': {
      const f = fields(2)
      return f ? { kind, address: f[0]!, codeHash: f[1]! } : unknown
    }
    case 'number': {
      const f = fields(1) ?? fields(2)
      const number = f && integer(f[f.length - 1]!)
      if (!f || number === undefined) return unknown
      return f.length === 2 ? { kind, number, checkpoint: f[0]! } : { kind, number }
    }
    case 'account':
    case 'unverifiedAccount': {
      const f = fields(2)
      return f ? { kind, blockHash: f[0]!, address: f[1]! } : unknown
    }
    case 'slot': {
      const f = fields(2)
      return f ? { kind, storageRoot: f[0]!, slot: f[1]! } : unknown
    }
    case 'proof': {
      const f = fields(3)
      return f ? { kind, blockHash: f[0]!, address: f[1]!, slots: f[2] === '' ? [] : f[2]!.split(',') } : unknown
    }
    case 'unverifiedSlot': {
      const f = fields(3)
      return f ? { kind, blockHash: f[0]!, address: f[1]!, slot: f[2]! } : unknown
    }
    case 'callAccessList': {
      const f = fields(2)
      return f ? { kind, blockHash: f[0]!, call: f[1]! } : unknown
    }
    case 'blockAccessLists': {
      const f = fields(2)
      const count = f && integer(f[1]!)
      return f && count !== undefined ? { kind, blockHash: f[0]!, count: Number(count) } : unknown
    }
  }
}
