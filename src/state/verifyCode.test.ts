import { bytesToHex } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { describe, expect, it } from 'vitest'
import { CodeHashMismatchError } from '../errors/state.js'
import { verifyCode } from './verifyCode.js'

const where = {
  block: { number: 7n, hash: `0x${'77'.repeat(32)}` },
  address: '0x00000000000000000000000000000000000000aa',
}
const code = new Uint8Array([0x60, 0x00, 0x60, 0x00, 0xf3])

describe('verifyCode', () => {
  it('returns code that hashes to the codeHash, whatever the case of its hex', () => {
    expect(verifyCode(keccak_256(code), '0x60006000F3', where)).toEqual(code)
  })

  it('refuses code of another hash, with both hashes in data', () => {
    const other = keccak_256(new Uint8Array([0]))
    let err: unknown
    try {
      verifyCode(other, bytesToHex(code), where)
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(CodeHashMismatchError)
    expect((err as CodeHashMismatchError).data).toEqual({
      block: { number: '0x7', hash: where.block.hash },
      address: where.address,
      expectedHash: bytesToHex(other),
      gotHash: bytesToHex(keccak_256(code)),
    })
  })

  it('refuses an answer that is not whole bytes of hex', () => {
    for (const raw of [null, 42, '600060', '0x600', '0xzz']) {
      expect(() => verifyCode(keccak_256(code), raw, where), String(raw)).toThrow('eth_getCode answer is malformed')
    }
  })
})
