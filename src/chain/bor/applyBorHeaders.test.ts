import { createBlockHeader } from '@ethereumjs/block'
import { bigIntToBytes, bytesToHex, concatBytes, privateToAddress, setLengthLeft } from '@ethereumjs/util'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { describe, expect, it } from 'vitest'
import type { Hex } from '../../types/hex.js'
import { createChainRules } from '../createChainRules.js'
import type { VerifiedHeader } from '../parseHeader.js'
import { type BorSnapshot, applyBorHeaders } from './applyBorHeaders.js'
import { borSealHash } from './borSeal.js'
import { newValidatorSet } from './borValidatorSet.js'

// Headers sealed here by validator keys of the test, as Bor seals them, on a Bor chain of sprint 4.
const rules = createChainRules({
  chainId: 4242n,
  genesis: {
    config: { chainId: 4242, londonBlock: 0, bor: { period: { '0': 2 }, sprint: { '0': 4 }, jaipurBlock: 0 } },
    alloc: {},
  } as never,
})
const keys = [1, 2, 3, 4].map((i) => setLengthLeft(bigIntToBytes(BigInt(0x1000 + i)), 32))
const address = (key: Uint8Array) => bytesToHex(privateToAddress(key)) as Hex
const [a1, a2, a3, a4] = keys.map(address) as [Hex, Hex, Hex, Hex]
const record = (who: Hex, power: number) =>
  concatBytes(
    setLengthLeft(Uint8Array.from(Buffer.from(who.slice(2), 'hex')), 20),
    setLengthLeft(bigIntToBytes(BigInt(power)), 20),
  )

function sealed(number: bigint, parentHash: Uint8Array, key: Uint8Array, validators?: Uint8Array): VerifiedHeader {
  const common = rules.commonFor(number, 0n)
  const fields = (extraData: Uint8Array) => ({
    number,
    parentHash,
    timestamp: 1_700_000_000n + 2n * number,
    gasLimit: 30_000_000n,
    baseFeePerGas: 7n,
    difficulty: 1n,
    extraData,
  })
  const payload = concatBytes(new Uint8Array(32), validators ?? new Uint8Array(0))
  const unsealed = createBlockHeader(fields(concatBytes(payload, new Uint8Array(65))), {
    common,
    skipConsensusFormatValidation: true,
  })
  const signature = secp256k1.sign(borSealHash(unsealed, true), key, { prehash: false, format: 'recovered' })
  // noble writes the recovery byte first; Bor's seal is r ‖ s ‖ v.
  const seal = concatBytes(signature.subarray(1), signature.subarray(0, 1))
  const header = createBlockHeader(fields(concatBytes(payload, seal)), { common, skipConsensusFormatValidation: true })
  return { hash: bytesToHex(header.hash()) as Hex, number, header, common }
}

function chain(signers: Uint8Array[], sprintEnds: Record<number, Uint8Array> = {}): VerifiedHeader[] {
  const out: VerifiedHeader[] = []
  let parent: Uint8Array = new Uint8Array(32)
  for (const [i, key] of signers.entries()) {
    const h = sealed(BigInt(i + 1), parent, key, sprintEnds[i + 1])
    out.push(h)
    parent = h.header.hash()
  }
  return out
}

const genesis = (): BorSnapshot => ({
  number: 0n,
  hash: `0x${'00'.repeat(32)}`,
  validatorSet: newValidatorSet([a1, a2, a3].map((address) => ({ address, power: 1n, priority: 0n, id: 0n }))),
})

describe('applyBorHeaders', () => {
  it('a sprint end replaces the set with the one its validator bytes name', () => {
    // Block 3 ends the first sprint (sprint 4: (3 + 1) % 4 == 0) and names a1 (power 1) and a4 (power 2).
    const headers = chain([keys[0]!, keys[1]!, keys[2]!, keys[0]!, keys[3]!], {
      3: concatBytes(record(a1, 1), record(a4, 2)),
    })
    const after = applyBorHeaders(genesis(), headers.slice(0, 3), rules.bor!)
    expect(after.number).toBe(3n)
    expect(after.hash).toBe(headers[2]!.hash)
    const members = after.validatorSet.validators.map((v) => [v.address, Number(v.power)])
    expect(members).toEqual(
      [
        [a1, 1],
        [a4, 2],
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
    )
    // From there on a4 may seal; a2 no longer may.
    expect(applyBorHeaders(after, headers.slice(3, 5), rules.bor!).number).toBe(5n)
    const bad = chain([keys[0]!, keys[1]!, keys[2]!, keys[1]!], { 3: concatBytes(record(a1, 1), record(a4, 2)) })
    expect(() => applyBorHeaders(genesis(), bad, rules.bor!)).toThrow(
      `Signer ${a2} is not a part of the producer set at block 4`,
    )
  })

  it('headers that do not follow the snapshot are refused', () => {
    const headers = chain([keys[0]!, keys[1]!])
    expect(() => applyBorHeaders(genesis(), headers.slice(1), rules.bor!)).toThrow(
      'out of range or non-contiguous chain',
    )
  })

  it("signers recovered elsewhere are used only for the header of the hash they are under; the others' are recovered here", () => {
    const headers = chain([keys[0]!, keys[1]!, keys[2]!])
    const here = applyBorHeaders(genesis(), headers, rules.bor!)
    // The right signers, by hash: the same snapshot.
    const right = new Map(headers.map((h, i) => [h.hash, [a1, a2, a3][i]!] as const))
    expect(applyBorHeaders(genesis(), headers, rules.bor!, right)).toEqual(here)
    // A signer under a hash no header has is never used.
    expect(applyBorHeaders(genesis(), headers, rules.bor!, new Map([[`0x${'11'.repeat(32)}` as Hex, a4]]))).toEqual(
      here,
    )
    // One under block 2's hash is block 2's signer, checked against the set as its own would be.
    expect(() => applyBorHeaders(genesis(), headers, rules.bor!, new Map([[headers[1]!.hash, a4]]))).toThrow(
      `Signer ${a4} is not a part of the producer set at block 2`,
    )
  })
})
