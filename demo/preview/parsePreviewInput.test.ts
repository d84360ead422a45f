import { describe, expect, it } from 'vitest'
import { parsePreviewInput } from './parsePreviewInput.js'

// What the preview page reads from a paste: each shape a wallet request comes in, and bad input in words.
const A = '0x00000000000000000000000000000000000000aa'
const B = '0x00000000000000000000000000000000000000bb'
const TYPED = { types: { EIP712Domain: [] }, primaryType: 'Permit', domain: {}, message: { owner: A, spender: B } }

describe('parsePreviewInput', () => {
  it('a transaction, eth_sendTransaction params, a list of calls, wallet_sendCalls and a whole request', () => {
    expect(parsePreviewInput(JSON.stringify({ from: A, to: B, value: '0x1' }))).toEqual({
      kind: 'calls',
      calls: [{ from: A, to: B, value: '0x1' }],
    })
    expect(parsePreviewInput(JSON.stringify([{ from: A, to: B }]))).toEqual({
      kind: 'calls',
      calls: [{ from: A, to: B }],
    })
    expect(
      parsePreviewInput(
        JSON.stringify([
          { from: A, to: B },
          { from: A, data: '0x00' },
        ]),
      ),
    ).toMatchObject({
      kind: 'calls',
      calls: [{ to: B }, { data: '0x00' }],
    })
    const sendCalls = { version: '2.0.0', from: A, chainId: '0x7a69', calls: [{ to: B, value: '0x1' }, { to: A }] }
    const expected = {
      kind: 'calls',
      account: A,
      calls: [
        { from: A, to: B, value: '0x1' },
        { from: A, to: A },
      ],
    }
    expect(parsePreviewInput(JSON.stringify(sendCalls))).toEqual(expected)
    expect(parsePreviewInput(JSON.stringify([sendCalls]))).toEqual(expected)
    expect(parsePreviewInput(JSON.stringify({ method: 'wallet_sendCalls', params: [sendCalls] }))).toEqual(expected)
  })

  it('typed data: {account, typedData}, the typed data alone (its owner signs), eth_signTypedData_v4 params with an object or text', () => {
    const expected = { kind: 'typedData', account: A, typedData: TYPED }
    expect(parsePreviewInput(JSON.stringify({ account: A, typedData: TYPED }))).toEqual(expected)
    expect(parsePreviewInput(JSON.stringify(TYPED))).toEqual(expected)
    expect(parsePreviewInput(JSON.stringify([A, TYPED]))).toEqual(expected)
    expect(parsePreviewInput(JSON.stringify([A, JSON.stringify(TYPED)]))).toEqual(expected)
    expect(
      parsePreviewInput(JSON.stringify({ method: 'eth_signTypedData_v4', params: [A, JSON.stringify(TYPED)] })),
    ).toEqual(expected)
  })

  it('bad input is said in words', () => {
    expect(() => parsePreviewInput('')).toThrow(/nothing to preview/)
    expect(() => parsePreviewInput('{"from": ')).toThrow(/^not JSON: /)
    expect(() => parsePreviewInput('42')).toThrow(/expected a transaction, a list of calls or typed data/)
    expect(() => parsePreviewInput('[]')).toThrow(/an empty list/)
    expect(() => parsePreviewInput('[1, 2]')).toThrow(/calls\[0\]: expected a call object/)
    expect(() => parsePreviewInput(JSON.stringify({ from: A, calls: [] }))).toThrow(/calls: no calls/)
    expect(() => parsePreviewInput(JSON.stringify({ ...TYPED, message: {} }))).toThrow(/typed data without its signer/)
    expect(() => parsePreviewInput(JSON.stringify({ account: '0x12', typedData: TYPED }))).toThrow(
      /account: expected an address/,
    )
    expect(() => parsePreviewInput(JSON.stringify([A, '{nope']))).toThrow(
      /params\[1\]: typed data given as text is not JSON/,
    )
  })
})
