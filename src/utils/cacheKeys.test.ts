import { describe, expect, it } from 'vitest'
import { type CacheKeyKind, type ParsedCacheKey, cacheKeyKind, cacheKeys, parseCacheKey } from './cacheKeys.js'

const HASH = `0x${'ab'.repeat(32)}`
const ROOT = `0x${'cd'.repeat(32)}`
const ADDRESS = `0x${'12'.repeat(20)}`
const SLOT = `0x${'00'.repeat(31)}07`

// One sample per kind: the key as earlier versions wrote it (persisted data must still be found under
// it) and the parts it parses back into. `satisfies Record<CacheKeyKind, …>` makes a new kind fail to
// compile here until it is given a sample.
const samples = {
  header: { key: cacheKeys.header(HASH), literal: `h:${HASH}`, parsed: { kind: 'header', hash: HASH } },
  number: { key: cacheKeys.number(17n), literal: 'n:17', parsed: { kind: 'number', number: 17n } },
  linked: { key: cacheKeys.linked(HASH), literal: `lk:${HASH}`, parsed: { kind: 'linked', hash: HASH } },
  account: {
    key: cacheKeys.account(HASH, ADDRESS),
    literal: `a:${HASH}:${ADDRESS}`,
    parsed: { kind: 'account', blockHash: HASH, address: ADDRESS },
  },
  slot: {
    key: cacheKeys.slot(ROOT, SLOT),
    literal: `s:${ROOT}:${SLOT}`,
    parsed: { kind: 'slot', storageRoot: ROOT, slot: SLOT },
  },
  code: { key: cacheKeys.code(ROOT), literal: `c:${ROOT}`, parsed: { kind: 'code', codeHash: ROOT } },
  proof: {
    key: cacheKeys.proof(HASH, ADDRESS, [SLOT, '0x01']),
    literal: `p:${HASH}:${ADDRESS}:${SLOT},0x01`,
    parsed: { kind: 'proof', blockHash: HASH, address: ADDRESS, slots: [SLOT, '0x01'] },
  },
  unverifiedAccount: {
    key: cacheKeys.unverifiedAccount(HASH, ADDRESS),
    literal: `ua:${HASH}:${ADDRESS}`,
    parsed: { kind: 'unverifiedAccount', blockHash: HASH, address: ADDRESS },
  },
  unverifiedSlot: {
    key: cacheKeys.unverifiedSlot(HASH, ADDRESS, SLOT),
    literal: `us:${HASH}:${ADDRESS}:${SLOT}`,
    parsed: { kind: 'unverifiedSlot', blockHash: HASH, address: ADDRESS, slot: SLOT },
  },
  block: { key: cacheKeys.block(HASH), literal: `b:${HASH}`, parsed: { kind: 'block', hash: HASH } },
  verifiedBlock: {
    key: cacheKeys.verifiedBlock(HASH),
    literal: `vb:${HASH}`,
    parsed: { kind: 'verifiedBlock', hash: HASH },
  },
  rawBlock: { key: cacheKeys.rawBlock(HASH), literal: `B:${HASH}`, parsed: { kind: 'rawBlock', hash: HASH } },
  rawReceipts: { key: cacheKeys.rawReceipts(HASH), literal: `R:${HASH}`, parsed: { kind: 'rawReceipts', hash: HASH } },
  transaction: { key: cacheKeys.transaction(HASH), literal: `t:${HASH}`, parsed: { kind: 'transaction', hash: HASH } },
  callAccessList: {
    // The call's JSON holds colons of its own; they stay in the last field.
    key: cacheKeys.callAccessList(HASH, '{"to":"0x1","data":"0x"}'),
    literal: `al:${HASH}:{"to":"0x1","data":"0x"}`,
    parsed: { kind: 'callAccessList', blockHash: HASH, call: '{"to":"0x1","data":"0x"}' },
  },
  blockAccessLists: {
    key: cacheKeys.blockAccessLists(HASH, 3),
    literal: `bal:${HASH}:3`,
    parsed: { kind: 'blockAccessLists', blockHash: HASH, count: 3 },
  },
  footprint: {
    key: cacheKeys.footprint(HASH, '0xa9059cbb'),
    literal: `fp:${HASH}:0xa9059cbb`,
    parsed: { kind: 'footprint', codeHash: HASH, selector: '0xa9059cbb' },
  },
  calleeCode: {
    key: cacheKeys.calleeCode(ADDRESS),
    literal: `cc:${ADDRESS}`,
    parsed: { kind: 'calleeCode', address: ADDRESS },
  },
  borSnapshot: {
    key: cacheKeys.borSnapshot(HASH),
    literal: `bs:${HASH}`,
    parsed: { kind: 'borSnapshot', hash: HASH },
  },
  tokenMetadata: {
    key: cacheKeys.tokenMetadata(ADDRESS, HASH),
    literal: `tm:${ADDRESS}:${HASH}`,
    parsed: { kind: 'tokenMetadata', address: ADDRESS, codeHash: HASH },
  },
  trieNode: {
    key: cacheKeys.trieNode(HASH),
    literal: `tn:${HASH}`,
    parsed: { kind: 'trieNode', hash: HASH },
  },
  touchedBy: {
    key: cacheKeys.touchedBy(HASH),
    literal: `tb:${HASH}`,
    parsed: { kind: 'touchedBy', hash: HASH },
  },
  sourcify: {
    key: cacheKeys.sourcify(137n, HASH),
    literal: `sfy:137:${HASH}`,
    parsed: { kind: 'sourcify', chainId: 137n, codeHash: HASH },
  },
} satisfies Record<CacheKeyKind, { key: string; literal: string; parsed: ParsedCacheKey }>

describe('cacheKeys', () => {
  it('builds every kind under the prefix and field order earlier versions persisted', () => {
    for (const { key, literal } of Object.values(samples)) expect(key).toBe(literal)
  })

  it('parses every kind back into its kind and parts (build → parse round-trips)', () => {
    for (const [kind, { key, parsed }] of Object.entries(samples)) {
      expect(cacheKeyKind(key)).toBe(kind)
      expect(parseCacheKey(key)).toEqual(parsed)
    }
  })

  it('keeps a checkpoint-scoped number apart from a plain one, and a proof with no slots', () => {
    expect(cacheKeys.number(5n, HASH)).toBe(`n:${HASH}:5`)
    expect(parseCacheKey(cacheKeys.number(5n, HASH))).toEqual({ kind: 'number', number: 5n, checkpoint: HASH })
    expect(cacheKeys.proof(HASH, ADDRESS, [])).toBe(`p:${HASH}:${ADDRESS}:`)
    expect(parseCacheKey(cacheKeys.proof(HASH, ADDRESS, []))).toEqual({
      kind: 'proof',
      blockHash: HASH,
      address: ADDRESS,
      slots: [],
    })
  })

  it('reports unknown prefixes, keys without a prefix and keys whose fields do not fit as unknown', () => {
    for (const key of ['x:0x1', 'H:0x1', 'hx', '', ':0x1', 'acct:0x1:0x2']) {
      expect(cacheKeyKind(key)).toBe('unknown')
      expect(parseCacheKey(key)).toEqual({ kind: 'unknown', key })
    }
    // A known prefix with the wrong number of fields, or a number that is not one.
    for (const key of [`a:${HASH}`, `h:${HASH}:extra`, 'n:0x11', 'n:a:b:1', `bal:${HASH}:x`, `us:${HASH}:${ADDRESS}`]) {
      expect(parseCacheKey(key)).toEqual({ kind: 'unknown', key })
    }
  })
})
