import { RLP } from '@ethereumjs/rlp'
import { concatBytes } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { borValidatorBytes } from './borSeal.js'

const vanity = new Uint8Array(32).fill(1)
const seal = new Uint8Array(65).fill(2)
const validators = new Uint8Array(80).fill(7)

describe('borValidatorBytes', () => {
  it('before Napoli: the bytes between the vanity and the seal', () => {
    expect(borValidatorBytes(concatBytes(vanity, validators, seal), false)).toEqual(validators)
    expect(borValidatorBytes(concatBytes(vanity, seal), false)).toEqual(new Uint8Array(0))
  })

  it('from Napoli on: the first field of RLP([validatorBytes, txDependency])', () => {
    const payload = RLP.encode([validators, [[1, 2], []]])
    expect(borValidatorBytes(concatBytes(vanity, payload, seal), true)).toEqual(validators)
    expect(borValidatorBytes(concatBytes(vanity, new Uint8Array([0xff, 0x01]), seal), true)).toBeUndefined()
    expect(borValidatorBytes(concatBytes(vanity, new Uint8Array(10)), true)).toBeUndefined()
  })
})
