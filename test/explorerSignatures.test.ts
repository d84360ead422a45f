import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { DEVNET_SIGNATURES_FILE, devnetSignaturesSource } from '../scripts/devnetSignatures.js'
import { decodeAbiParameters, encodeAbiParameters, encodeErrorResult, encodeFunctionData, parseAbiItem } from 'viem'
import { decodeCallData, decodeLog, describeRevert, signatures } from '../demo/abi/signatures.js'
import { decodeParams, encodeStatic, hexToBytes, parseAmount } from '../demo/abi/decodeAbi.js'

// The explorer's decoding, against viem's ABI coder (an independent implementation).
it('demo/abi/devnetSignatures.ts is what the devnet artifacts say (npx tsx scripts/devnetSignatures.ts)', () => {
  expect(readFileSync(DEVNET_SIGNATURES_FILE, 'utf8')).toBe(devnetSignaturesSource())
})

it('decodes calls, dynamic and nested arguments as viem encodes them', () => {
  const data = encodeFunctionData({
    abi: [
      parseAbiItem(
        'function safeBatchTransferFrom(address from, address to, uint256[] ids, uint256[] amounts, bytes data)',
      ),
    ],
    args: [
      '0x00000000000000000000000000000000000000aa',
      '0x00000000000000000000000000000000000000bb',
      [1n, 2n],
      [10n, 20n],
      '0xdeadbeef',
    ],
  })
  expect(decodeCallData(data)).toEqual({
    name: 'safeBatchTransferFrom',
    signature: 'safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)',
    args: [
      { name: 'from', type: 'address', value: '0x00000000000000000000000000000000000000aa' },
      { name: 'to', type: 'address', value: '0x00000000000000000000000000000000000000bb' },
      { name: 'ids', type: 'uint256[]', value: ['1', '2'] },
      { name: 'amounts', type: 'uint256[]', value: ['10', '20'] },
      { name: 'data', type: 'bytes', value: '0xdeadbeef' },
    ],
  })
  const types = ['string', '(address,bytes)[]', 'int256', 'bool', 'bytes4']
  const encoded = encodeAbiParameters(
    types.map((type) => ({
      type: type.startsWith('(') ? 'tuple[]' : type,
      ...(type.startsWith('(') ? { components: [{ type: 'address' }, { type: 'bytes' }] } : {}),
    })) as never,
    ['héllo', [['0x00000000000000000000000000000000000000cc', '0x01']], -5n, true, '0x12345678'] as never,
  )
  expect(decodeParams(types, hexToBytes(encoded))).toEqual([
    'héllo',
    [['0x00000000000000000000000000000000000000cc', '0x01']],
    '-5',
    'true',
    '0x12345678',
  ])
  // Data too short for the types: no decoding rather than a wrong one.
  expect(decodeParams(['uint256', 'uint256'], hexToBytes(`0x${'00'.repeat(40)}`))).toBeUndefined()
  expect(decodeCallData('0x12345678')).toBeUndefined()
})

it('decodes events by topic count (ERC-20 and ERC-721 Transfer share a topic) and revert data', () => {
  const topic = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
  const pad = (a: string) => `0x${a.slice(2).padStart(64, '0')}`
  const a = '0x00000000000000000000000000000000000000aa'
  const b = '0x00000000000000000000000000000000000000bb'
  const erc20 = decodeLog([topic, pad(a), pad(b)], pad('0x05'))
  expect(erc20?.args.map((x) => x.value)).toEqual([a, b, '5'])
  const erc721 = decodeLog([topic, pad(a), pad(b), pad('0x07')], '0x')
  expect(erc721?.args.map((x) => [x.name, x.value])).toEqual([
    ['from', a],
    ['to', b],
    ['tokenId', '7'],
  ])
  const reason = encodeFunctionData({ abi: [parseAbiItem('function Error(string)')], args: ['nope'] })
  expect(describeRevert(reason)).toBe('nope')
  const panic = encodeFunctionData({ abi: [parseAbiItem('function Panic(uint256)')], args: [0x11n] })
  // The daemon's words for it (geth's abi.UnpackRevert), one decoder for the page and the daemon.
  expect(describeRevert(panic)).toBe('Panic(0x11): arithmetic underflow or overflow')
  expect(describeRevert('0xdeadbeef')).toBe('custom error 0xdeadbeef (unknown selector)')
  // A custom error of the daemon's bundled table (OpenZeppelin v5's), its arguments shown.
  const oz = encodeErrorResult({
    abi: [parseAbiItem('error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)')],
    args: [a, 5n, 7n],
  })
  expect(describeRevert(oz)).toBe(`ERC20InsufficientBalance(sender: ${a}, balance: 5, needed: 7)`)
  expect(describeRevert('0x')).toBeUndefined()
  expect(signatures().selectors.get('0xa9059cbb')?.[0]?.signature).toBe('transfer(address,uint256)')
})

it('encodes the arguments a user writes as viem does', () => {
  const encoded = encodeStatic(
    ['address', 'uint256', 'bool', 'int8'],
    ['0x00000000000000000000000000000000000000aa', '1.5 ether', 'true', '-1'],
  )
  expect(`0x${encoded}`).toBe(
    encodeAbiParameters(
      [{ type: 'address' }, { type: 'uint256' }, { type: 'bool' }, { type: 'int8' }],
      ['0x00000000000000000000000000000000000000aa', 1_500_000_000_000_000_000n, true, -1],
    ),
  )
  expect(decodeAbiParameters([{ type: 'uint256' }], `0x${encodeStatic(['uint256'], ['2 gwei'])}`)).toEqual([
    2_000_000_000n,
  ])
  expect(parseAmount('0x10')).toBe(16n)
  expect(() => encodeStatic(['address'], ['bob'])).toThrow('argument 1 (address) is not an address: bob')
  expect(() => encodeStatic(['uint256'], [])).toThrow('expected 1 arguments, got 0')
  expect(() => parseAmount('1.0000000000000000001 ether')).toThrow('too many decimals')
})
