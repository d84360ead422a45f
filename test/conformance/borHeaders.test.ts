import { readFileSync } from 'node:fs'
import { hexToBytes } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { BorExtraDataError, recoverBorAuthor } from '../../src/chain/bor/borSeal.js'
import { createChainRules } from '../../src/chain/createChainRules.js'
import { parseHeader } from '../../src/chain/parseHeader.js'

// Real Polygon PoS mainnet headers as chainstorage recorded them (test/fixtures/bor/SOURCE.txt): each
// header's hash recomputed under chain 137's rules (known by chain id), and the block author recovered
// from its seal, as bor_getAuthor does, equal to the author recorded.

type Fixture = {
  file: string
  header: Record<string, string>
  expectedAuthor: string | null
}
const fixtures = JSON.parse(readFileSync(new URL('../fixtures/bor/headers.json', import.meta.url), 'utf8')) as Fixture[]
const JAIPUR = 23_850_000n

function fields(h: Record<string, string>) {
  const bytes = (k: string) => hexToBytes(h[k] as `0x${string}`)
  return {
    parentHash: bytes('parentHash'),
    uncleHash: bytes('sha3Uncles'),
    coinbase: { bytes: bytes('miner') },
    stateRoot: bytes('stateRoot'),
    transactionsTrie: bytes('transactionsRoot'),
    receiptTrie: bytes('receiptsRoot'),
    logsBloom: bytes('logsBloom'),
    difficulty: BigInt(h.difficulty!),
    number: BigInt(h.number!),
    gasLimit: BigInt(h.gasLimit!),
    gasUsed: BigInt(h.gasUsed!),
    timestamp: BigInt(h.timestamp!),
    extraData: bytes('extraData'),
    mixHash: bytes('mixHash'),
    nonce: bytes('nonce'),
    baseFeePerGas: h.baseFeePerGas === undefined ? undefined : BigInt(h.baseFeePerGas),
  }
}

describe('Polygon PoS headers: the author from the seal', () => {
  it('has the 8 headers, 7 with a recorded author', () => {
    expect(fixtures).toHaveLength(8)
    expect(fixtures.filter((f) => f.expectedAuthor)).toHaveLength(7)
  })

  const rules = createChainRules({ chainId: 137n })
  for (const f of fixtures) {
    const number = BigInt(f.header.number!)
    it(`block ${number} (${f.file})`, () => {
      // parseHeader fails closed unless keccak256(RLP(header)) is the recorded hash.
      const verified = parseHeader(f.header, rules, f.header.hash)
      expect(verified.hash).toBe(f.header.hash!.toLowerCase())
      expect(rules.bor!.isJaipur(number)).toBe(number >= JAIPUR)
      const author = recoverBorAuthor(verified.header, rules.bor!.isJaipur(number))
      expect(recoverBorAuthor(fields(f.header), number >= JAIPUR)).toBe(author)
      if (f.expectedAuthor) expect(author).toBe(f.expectedAuthor.toLowerCase())
      else expect(author).toMatch(/^0x[0-9a-f]{40}$/)
    })
  }

  it('a header whose base fee is sealed from Jaipur on recovers another address without it', () => {
    const after = fixtures.find((f) => f.expectedAuthor && BigInt(f.header.number!) >= JAIPUR)!
    expect(recoverBorAuthor(fields(after.header), false)).not.toBe(after.expectedAuthor!.toLowerCase())
  })

  it('extraData too short for the vanity or the seal: the reference daemon’s errors', () => {
    const h = fields(fixtures[0]!.header)
    expect(() => recoverBorAuthor({ ...h, extraData: new Uint8Array(31) }, false)).toThrow(
      new BorExtraDataError('extra-data 32 byte vanity prefix missing'),
    )
    expect(() => recoverBorAuthor({ ...h, extraData: new Uint8Array(96) }, false)).toThrow(
      new BorExtraDataError('extra-data 65 byte signature suffix missing'),
    )
  })
})
