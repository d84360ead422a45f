import { bytesToHex } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { describe, expect, it } from 'vitest'
import { borStateSyncTxHash, splitBorStateSync } from './borStateSync.js'

describe('Bor state-sync transactions', () => {
  const blockHash = `0x${'ab'.repeat(32)}`
  it('hash: keccak256 of "matic-bor-receipt-", the number in 8 bytes and the block hash', () => {
    const text = Buffer.concat([
      Buffer.from('matic-bor-receipt-'),
      Buffer.from('0000000000000100', 'hex'),
      Buffer.from('ab'.repeat(32), 'hex'),
    ])
    expect(borStateSyncTxHash(256n, blockHash)).toBe(bytesToHex(keccak_256(text)))
  })
  it('splits off the last entry only when it carries the derived hash', () => {
    const derived = borStateSyncTxHash(7n, blockHash)
    const list = [{ hash: '0x01' }, { hash: derived.toUpperCase().replace('0X', '0x') }]
    expect(splitBorStateSync(list, (t) => t.hash, 7n, blockHash)).toEqual({
      items: [{ hash: '0x01' }],
      stateSync: derived,
    })
    expect(splitBorStateSync(list, (t) => t.hash, 8n, blockHash).stateSync).toBeUndefined()
    expect(splitBorStateSync([], (t: { hash: string }) => t.hash, 7n, blockHash).items).toEqual([])
  })
})
