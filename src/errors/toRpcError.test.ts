import { describe, expect, it } from 'vitest'
import { BaseError, BaseErrorWithData } from './base.js'
import {
  CodeHashMismatchError,
  HeaderVerificationError,
  ProofRootMismatchError,
  ProofVerificationError,
} from './state.js'
import { toRpcError } from './toRpcError.js'

const hash = `0x${'ab'.repeat(32)}`
const root = `0x${'11'.repeat(32)}`
const other = `0x${'22'.repeat(32)}`
const address = `0x${'cd'.repeat(20)}`
const slot = `0x${'00'.repeat(31)}01`

describe('toRpcError data', () => {
  it('a proof failure keeps -32000 and its message, and names block, address, slot and roots in data', () => {
    const cause = new ProofRootMismatchError(other, root)
    const err = new ProofVerificationError(
      'storage proof does not verify against the storageRoot',
      { block: { number: 300n, hash }, address, slot, expectedRoot: root, gotRoot: other },
      { cause },
    )
    expect(toRpcError(err)).toEqual({
      code: -32000,
      message: `state does not verify: storage proof does not verify against the storageRoot; block 300 ${hash}; address ${address}; slot ${slot}; the proof is rooted at ${other}, not at the expected root ${root}`,
      data: { block: { number: '0x12c', hash }, address, slot, expectedRoot: root, gotRoot: other },
    })
  })

  it('leaves out what the throw site does not know', () => {
    const err = new ProofVerificationError('account leaf is malformed', { block: { hash }, address })
    expect(toRpcError(err).data).toEqual({ block: { hash }, address })
  })

  it('a code hash mismatch names the expected and the computed hash', () => {
    const err = new CodeHashMismatchError({ block: { number: 0n, hash }, address }, root, other)
    const wire = toRpcError(err)
    expect(wire.code).toBe(-32000)
    expect(wire.message).toBe(
      `state does not verify: code does not match the account codeHash; block 0 ${hash}; address ${address}; codeHash ${root}; keccak256(code) ${other}`,
    )
    expect(wire.data).toEqual({ block: { number: '0x0', hash }, address, expectedHash: root, gotHash: other })
  })

  it('a header failure carries data only when its throw site gave facts', () => {
    const bare = new HeaderVerificationError('block answer is malformed')
    expect(toRpcError(bare)).toEqual({ code: -32000, message: 'header does not verify: block answer is malformed' })
    const withFacts = new HeaderVerificationError('x', {
      facts: { block: { number: 1n, hash }, expectedHash: hash, gotHash: other },
    })
    expect(toRpcError(withFacts)).toEqual({
      code: -32000,
      message: 'header does not verify: x',
      data: { block: { number: '0x1', hash }, expectedHash: hash, gotHash: other },
    })
  })

  it('any BaseErrorWithData sends its data; a plain BaseError sends none', () => {
    expect(toRpcError(new BaseErrorWithData('boom', { why: 1 }))).toEqual({
      code: -32000,
      message: 'boom',
      data: { why: 1 },
    })
    expect(toRpcError(new BaseError('boom'))).toEqual({ code: -32000, message: 'boom' })
    expect('data' in toRpcError(new BaseErrorWithData('boom', undefined))).toBe(false)
  })
})
