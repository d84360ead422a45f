import { describe, expect, it } from 'vitest'
import { BaseError, BaseErrorWithData } from './base.js'
import {
  CodeHashMismatchError,
  HeaderVerificationError,
  ProofRootMismatchError,
  ProofVerificationError,
  UNPROVABLE_GENESIS_MESSAGE,
} from './state.js'
import { toRpcError } from './toRpcError.js'

const hash = `0x${'ab'.repeat(32)}`
const root = `0x${'11'.repeat(32)}`
const other = `0x${'22'.repeat(32)}`
const address = `0x${'cd'.repeat(20)}`
const slot = `0x${'00'.repeat(31)}01`

describe('toRpcError data', () => {
  it('a proof failure keeps -32000, says what failed and the block in one line, and names block, address, slot and roots in data', () => {
    const cause = new ProofRootMismatchError(other, root)
    const err = new ProofVerificationError(
      'storage proof does not verify against the storageRoot',
      { block: { number: 300n, hash }, address, slot, expectedRoot: root, gotRoot: other },
      { cause },
    )
    expect(toRpcError(err)).toEqual({
      code: -32000,
      // The roots the cause names are data's expectedRoot and gotRoot: not said twice.
      message: 'state does not verify: storage proof does not verify against the storageRoot (block 300)',
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
    expect(wire.message).toBe('state does not verify: code does not match the account codeHash (block 0)')
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

describe('toRpcError: one line, the rest as data', () => {
  const EMPTY = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421'
  const at = (number: bigint) => ({ block: { number, hash }, address })

  it("a cause's short reason is said after the message; a long one goes to data.details, on one line", () => {
    const short = new ProofVerificationError('account proof does not verify against the stateRoot', at(7n), {
      cause: new Error('proof is missing nodes on the path to the key'),
    })
    expect(toRpcError(short)).toEqual({
      code: -32000,
      message:
        'state does not verify: account proof does not verify against the stateRoot (block 7): proof is missing nodes on the path to the key',
      data: { block: { number: '0x7', hash }, address },
    })
    const reason = `malformed proof:\n${'x'.repeat(200)}`
    const long = new ProofVerificationError('account leaf is malformed', at(7n), { cause: new Error(reason) })
    expect(toRpcError(long)).toEqual({
      code: -32000,
      message: 'state does not verify: account leaf is malformed (block 7)',
      data: { block: { number: '0x7', hash }, address, details: `malformed proof: ${'x'.repeat(200)}` },
    })
  })

  it('the 647-character anvil-genesis error is one line of at most 160, its facts in data', () => {
    const err = new ProofVerificationError(
      'account proof does not verify against the stateRoot',
      { ...at(0n), expectedRoot: EMPTY, gotRoot: other },
      { cause: new ProofRootMismatchError(other, EMPTY) },
    )
    const wire = toRpcError(err)
    expect(wire.message).toBe(UNPROVABLE_GENESIS_MESSAGE)
    expect(wire.message).toBe(
      "state does not verify: block 1's parent state (a genesis like anvil's, whose header commits to an empty state) cannot be proven: mine one empty block first",
    )
    expect(wire.message.length).toBeLessThanOrEqual(160)
    expect(wire.data).toEqual({ block: { number: '0x0', hash }, address, expectedRoot: EMPTY, gotRoot: other })
    // The log line (Error.message) keeps what failed and where.
    expect(err.message).toContain('account proof does not verify against the stateRoot')
    expect(err.message).toContain(`address ${address}`)
  })

  it('is said of that case only: block 0, the empty root expected, a proof rooted at another', () => {
    const what = 'account proof does not verify against the stateRoot'
    const cases: [string, ConstructorParameters<typeof ProofVerificationError>[1]][] = [
      ['block 1', { ...at(1n), expectedRoot: EMPTY, gotRoot: other }],
      ['a genesis committing to a state', { ...at(0n), expectedRoot: root, gotRoot: other }],
      ['a failure other than the root (no gotRoot)', { ...at(0n), expectedRoot: EMPTY }],
      ['a proof rooted at the empty root', { ...at(0n), expectedRoot: EMPTY, gotRoot: EMPTY }],
      ['block number unknown', { block: { hash }, address, expectedRoot: EMPTY, gotRoot: other }],
    ]
    for (const [name, facts] of cases) {
      const wire = toRpcError(new ProofVerificationError(what, facts))
      expect(wire.message, name).toMatch(
        /^state does not verify: account proof does not verify against the stateRoot \(block /,
      )
      expect(wire.message, name).not.toBe(UNPROVABLE_GENESIS_MESSAGE)
    }
  })
})
