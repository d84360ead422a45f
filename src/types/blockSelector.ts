import type { Hex } from './hex.js'
export type BlockTag = 'latest' | 'earliest' | 'pending' | 'safe' | 'finalized'

/** Which block a request is about, before it is resolved to one verified header. */
export type BlockSelector =
  | { kind: 'tag'; tag: BlockTag }
  | { kind: 'number'; number: bigint }
  | { kind: 'hash'; hash: Hex; requireCanonical: boolean }
