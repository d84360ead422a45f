import { createBlockHeader } from '@ethereumjs/block'
import { Account, bytesToHex } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { createChainRules } from '../chain/createChainRules.js'
import type { VerifiedHeader } from '../chain/parseHeader.js'
import { createPersistentCodec } from './createPersistentCodec.js'

const rules = createChainRules({ chainId: 31337n, hardfork: 'prague' })
const codec = createPersistentCodec(rules)

function header(number: bigint): VerifiedHeader {
  const common = rules.commonFor(number, 1_700_000_000n)
  const h = createBlockHeader(
    { number, timestamp: 1_700_000_000n, gasLimit: 30_000_000n, baseFeePerGas: 7n },
    { common },
  )
  return { hash: bytesToHex(h.hash()), number, header: h, common }
}

describe('createPersistentCodec', () => {
  it('stores a header as RLP and checks its hash when reading it back', () => {
    const h = header(12n)
    const stored = codec.encode(`h:${h.hash}`, h)
    const back = codec.decode(`h:${h.hash}`, stored) as VerifiedHeader
    expect(back.hash).toBe(h.hash)
    expect(back.number).toBe(12n)
    expect(bytesToHex(back.header.serialize())).toBe(bytesToHex(h.header.serialize()))
    // Filed under another block's hash: refused (read back as nothing).
    expect(codec.decode(`h:${header(13n).hash}`, stored)).toBeUndefined()
  })

  it('round-trips accounts (absent ones too), slots and code; refuses malformed values', () => {
    const account = new Account(3n, 10n ** 18n)
    const back = codec.decode('a:0xb:0xa', codec.encode('a:0xb:0xa', account)) as Account
    expect(back.nonce).toBe(3n)
    expect(back.balance).toBe(10n ** 18n)
    expect(codec.decode('a:0xb:0xc', codec.encode('a:0xb:0xc', null))).toBeNull()
    expect(codec.decode('s:0x1:0x2', new Uint8Array([1]))).toEqual(new Uint8Array([1]))
    expect(codec.decode('c:0x3', 'not bytes')).toBeUndefined()
    expect(codec.decode('a:0xb:0xa', 42)).toBeUndefined()
  })

  it('does not persist what only lives in memory (decoded blocks, in-flight proofs)', () => {
    expect(codec.encode('b:0x1', { block: {} })).toBeUndefined()
    expect(codec.encode('p:0x1:0x2:', {})).toBeUndefined()
  })
})
