import { parseAbiItem, toEventSelector, toFunctionSelector } from 'viem'
import { describe, expect, it } from 'vitest'
import { decodeRevert } from '../decodeRevert.js'
import { bundledSignatures } from './bundledSignatures.js'
import { COMMON_SIGNATURES } from './commonSignatures.js'
import { createSignatureTable } from './createSignatureTable.js'
import { decodeCallData } from './decodeCallData.js'
import { parseJsonAbi } from './parseJsonAbi.js'
import { parseSignature } from './parseSignature.js'

/** The item a selector names in the bundled table, by its canonical signature. */
const named = (selector: string) =>
  bundledSignatures()
    .selectors.get(selector)
    ?.map((i) => i.signature)

describe('the bundled selector table', () => {
  it('names published selectors (computed from the signature lines with keccak, never typed in)', () => {
    // Selectors as the standards, the contracts' docs and 4byte.directory publish them.
    const published: [string, string][] = [
      ['0xa9059cbb', 'transfer(address,uint256)'],
      ['0x095ea7b3', 'approve(address,uint256)'],
      ['0x23b872dd', 'transferFrom(address,address,uint256)'],
      ['0x70a08231', 'balanceOf(address)'],
      ['0xd505accf', 'permit(address,address,uint256,uint256,uint8,bytes32,bytes32)'],
      ['0x8fcbaf0c', 'permit(address,address,uint256,uint256,bool,uint8,bytes32,bytes32)'],
      ['0xd0e30db0', 'deposit()'],
      ['0x2e1a7d4d', 'withdraw(uint256)'],
      ['0x08c379a0', 'Error(string)'],
      ['0x4e487b71', 'Panic(uint256)'],
      ['0xe450d38c', 'ERC20InsufficientBalance(address,uint256,uint256)'],
      ['0xfb8f41b2', 'ERC20InsufficientAllowance(address,uint256,uint256)'],
      ['0x7e273289', 'ERC721NonexistentToken(uint256)'],
      ['0x118cdaa7', 'OwnableUnauthorizedAccount(address)'],
      ['0xe2517d3f', 'AccessControlUnauthorizedAccount(address,bytes32)'],
      ['0xd81b2f2e', 'AllowanceExpired(uint256)'],
      ['0xf96fb071', 'InsufficientAllowance(uint256)'],
      ['0x756688fe', 'InvalidNonce()'],
      ['0xcd21db4f', 'SignatureExpired(uint256)'],
      ['0x87517c45', 'approve(address,address,uint160,uint48)'],
      ['0x30f28b7a', 'permitTransferFrom(((address,uint256),uint256,uint256),(address,uint256),address,bytes)'],
      ['0x38ed1739', 'swapExactTokensForTokens(uint256,uint256,address[],address,uint256)'],
      ['0x7ff36ab5', 'swapExactETHForTokens(uint256,address[],address,uint256)'],
      ['0x414bf389', 'exactInputSingle((address,address,uint24,address,uint256,uint256,uint256,uint160))'],
      ['0x04e45aaf', 'exactInputSingle((address,address,uint24,address,uint256,uint256,uint160))'],
      ['0xac9650d8', 'multicall(bytes[])'],
      ['0x3593564c', 'execute(bytes,bytes[],uint256)'],
      ['0x82ad56cb', 'aggregate3((address,bool,bytes)[])'],
      ['0x6a761202', 'execTransaction(address,uint256,bytes,uint8,uint256,uint256,uint256,address,address,bytes)'],
      [
        '0x1fad948c',
        'handleOps((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes)[],address)',
      ],
      ['0x765e827f', 'handleOps((address,uint256,bytes,bytes,bytes32,uint256,bytes32,bytes,bytes)[],address)'],
      ['0x220266b6', 'FailedOp(uint256,string)'],
    ]
    for (const [selector, signature] of published) expect(named(selector), signature).toContain(signature)
    expect(
      bundledSignatures().topics.get('0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'),
    ).toHaveLength(2)
  })

  it("every line's selector or topic is what viem computes from the same line (an independent parser and keccak)", () => {
    const table = bundledSignatures()
    for (const line of COMMON_SIGNATURES) {
      const item = parseSignature(line)
      const abi = parseAbiItem(line) as never
      if (item.kind === 'event') expect(table.topics.has(toEventSelector(abi)), line).toBe(true)
      else
        expect(
          table.selectors.get(toFunctionSelector(abi))?.some((i) => i.signature === item.signature),
          line,
        ).toBe(true)
    }
  })
})

describe('decodeRevert with signature tables', () => {
  const data = (selector: string, ...words: bigint[]) =>
    `${selector}${words.map((w) => w.toString(16).padStart(64, '0')).join('')}` as `0x${string}`
  const who = 0xabn

  it('names a custom error the table knows and decodes its arguments; Error and Panic stay as geth reads them', () => {
    expect(decodeRevert(data('0xe450d38c', who, 5n, 7n), [bundledSignatures()])).toEqual({
      type: 'custom',
      selector: '0xe450d38c',
      name: 'ERC20InsufficientBalance',
      signature: 'ERC20InsufficientBalance(address,uint256,uint256)',
      args: [
        { name: 'sender', type: 'address', value: `0x${'ab'.padStart(40, '0')}` },
        { name: 'balance', type: 'uint256', value: 5n },
        { name: 'needed', type: 'uint256', value: 7n },
      ],
      data: data('0xe450d38c', who, 5n, 7n),
    })
    expect(decodeRevert(data('0x4e487b71', 0x11n), [bundledSignatures()])).toMatchObject({ type: 'Panic', code: 0x11n })
  })

  it('leaves an unknown selector, data too short for the types, and no table raw with the selector', () => {
    expect(decodeRevert(data('0x12345678', 1n), [bundledSignatures()])).toEqual({
      type: 'unknown',
      selector: '0x12345678',
      data: data('0x12345678', 1n),
    })
    // ERC20InsufficientBalance needs three words.
    expect(decodeRevert(data('0xe450d38c', who), [bundledSignatures()]).type).toBe('unknown')
    expect(decodeRevert(data('0xe450d38c', who, 5n, 7n)).type).toBe('unknown')
    expect(decodeRevert('0x')).toEqual({ type: 'unknown', data: '0x' })
  })

  it("an app's JSON ABI (tuples, arrays) names what the bundle does not", () => {
    const items = parseJsonAbi([
      { type: 'constructor', inputs: [] },
      {
        type: 'error',
        name: 'Late',
        inputs: [
          {
            name: 'order',
            type: 'tuple',
            components: [
              { name: 'id', type: 'uint' },
              { name: 'tags', type: 'int8[]' },
            ],
          },
        ],
      },
      { name: 'settle', inputs: [{ name: 'ids', type: 'uint256[2]' }] },
    ])
    expect(items.map((i) => `${i.kind} ${i.signature}`)).toEqual([
      'error Late((uint256,int8[]))',
      'function settle(uint256[2])',
    ])
    const table = createSignatureTable(items)
    const [selector] = [...table.selectors.keys()]
    // Late((1, [-1, 2])): the tuple's offset, then its head (id, the array's offset) and the array.
    const encoded = data(selector!, 32n, 1n, 64n, 2n, (1n << 256n) - 1n, 2n)
    expect(decodeCallData(encoded, [bundledSignatures(), table])?.args).toEqual([
      { name: 'order', type: '(uint256,int8[])', value: [1n, [-1n, 2n]] },
    ])
  })

  it('refuses malformed JSON ABIs naming the entry', () => {
    const cases: [unknown, string][] = [
      [{}, ': expected a JSON ABI (an array of items), got [object Object]'],
      [
        [{ type: 'function', name: 'f', inputs: [{ type: 'uint7' }] }],
        '[0].inputs[0].type: "uint7" is not a type this decoder reads',
      ],
      [
        [{ type: 'error', name: 'E', inputs: [{ type: 'tuple' }] }],
        '[0].inputs[0].components: a tuple needs a non-empty array of components',
      ],
      [[{ type: 'event', name: 'bad name' }], '[0].name: expected an identifier, got "bad name"'],
      [
        [{ type: 'method', name: 'f' }],
        '[0].type: expected one of function, event, error, constructor, fallback, receive, got "method"',
      ],
      [
        [{ name: 'f', inputs: [{ type: 'uint256[100000]' }] }],
        "[0].inputs[0].type: a fixed array's length must be 1 to 1024",
      ],
      [Array(1001).fill({ type: 'receive' }), ': 1001 items, at most 1000'],
    ]
    for (const [abi, message] of cases) expect(() => parseJsonAbi(abi)).toThrow(message)
  })
})
