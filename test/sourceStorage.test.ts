import { DEVNET_SOLC_SETTINGS } from '../scripts/compileContracts.js'
import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeAbiParameters, encodeFunctionData, keccak256, padHex } from 'viem'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { createSourceRegistry } from '../src/sources/createSourceRegistry.js'
import type { StorageVariable } from '../src/sources/decodeStorage.js'
import { readStandardJson } from '../src/sources/readStandardJson.js'
import type { SourceFrame } from '../src/tracing/render/source/toSourceFrames.js'
import { DEV_ACCOUNT, rpcResult, waitForReceipt } from './src/rpc.js'

// Issue 38, storage as variables: a contract with a mapping, a nested mapping, a packed struct, a
// dynamic array, a packed pair of small uints, a short string and a custom error, compiled here with
// solc (storageLayout asked for), deployed on anvil, its transactions traced by edgetrace_sourceTracer
// and the storage it names checked against what each transaction did and what anvil holds after it.

const require = createRequire(import.meta.url)
type Json = Record<string, any>

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

contract Vault {
    struct Config {
        uint128 limit;
        uint64 fee;
        bool paused;
        address admin;
    }
    enum Mode { Off, On, Locked }

    error Exceeded(address who, uint256 wanted, uint256 limit);
    event Deposited(address indexed who, uint256 amount);

    address public owner;
    Mode public mode;
    uint128 public minted;
    uint64 public count;
    mapping(address => uint256) public balances;
    mapping(address => mapping(address => uint256)) public allowance;
    Config public config;
    uint256[] public items;
    string public label;

    constructor() {
        owner = msg.sender;
        config = Config(1000, 3, false, msg.sender);
    }

    function deposit(uint256 amount) external {
        require(!config.paused, "paused");
        if (amount > config.limit) revert Exceeded(msg.sender, amount, config.limit);
        balances[msg.sender] += amount;
        minted += uint128(amount);
        count += 1;
        emit Deposited(msg.sender, amount);
    }

    function approve(address spender, uint256 amount) external {
        allowance[msg.sender][spender] = amount;
    }

    function push(uint256 value) external {
        items.push(value);
    }

    function setConfig(uint128 limit, uint64 fee, bool paused) external {
        config.limit = limit;
        config.fee = fee;
        config.paused = paused;
    }

    function setLabel(string calldata text) external {
        label = text;
        mode = Mode.On;
    }

    function at(uint256 i) external view returns (uint256) {
        return items[i];
    }
}
`

const ABI = [
  { type: 'function', name: 'deposit', inputs: [{ name: 'amount', type: 'uint256' }], outputs: [] },
  {
    type: 'function',
    name: 'approve',
    inputs: [
      { name: 'spender', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [],
  },
  { type: 'function', name: 'push', inputs: [{ name: 'value', type: 'uint256' }], outputs: [] },
  {
    type: 'function',
    name: 'setConfig',
    inputs: [
      { name: 'limit', type: 'uint128' },
      { name: 'fee', type: 'uint64' },
      { name: 'paused', type: 'bool' },
    ],
    outputs: [],
  },
  { type: 'function', name: 'setLabel', inputs: [{ name: 'text', type: 'string' }], outputs: [] },
  { type: 'function', name: 'at', inputs: [{ name: 'i', type: 'uint256' }], outputs: [{ type: 'uint256' }] },
] as const

/** A label past 31 bytes: stored from keccak256(slot), its slot holding length × 2 + 1. */
const LONG = 'a label longer than one slot holds, kept in two of its own'
const SPENDER = '0x000000000000000000000000000000000000beef'
const ME = DEV_ACCOUNT

let anvil: AnvilInstance
let edge: RunningEdgetrace
let vault: `0x${string}`
let output: Json
const hashes: Record<string, string> = {}

function compile(): { input: Json; output: Json } {
  const input = {
    language: 'Solidity',
    sources: { 'Vault.sol': { content: SOURCE } },
    settings: {
      ...DEVNET_SOLC_SETTINGS,
      outputSelection: {
        '*': {
          '*': [
            'abi',
            'storageLayout',
            'evm.bytecode.object',
            'evm.deployedBytecode.object',
            'evm.deployedBytecode.sourceMap',
            'evm.deployedBytecode.immutableReferences',
          ],
        },
      },
    },
  }
  const solc = require('solc') as { compile(input: string): string }
  const out = JSON.parse(solc.compile(JSON.stringify(input)))
  const errors = (out.errors ?? []).filter((e: Json) => e.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((e: Json) => e.formattedMessage).join('\n'))
  return { input, output: out }
}

/** Sends a call of the vault's from the dev account (gas given: a reverting one is mined too) and returns its hash. */
async function send(name: string, data: `0x${string}`, ok = true) {
  const hash = await rpcResult(anvil.url, 'eth_sendTransaction', [{ from: ME, to: vault, data, gas: '0x100000' }])
  const receipt = await waitForReceipt(anvil.url, hash)
  expect(receipt.status, name).toBe(ok ? '0x1' : '0x0')
  hashes[name] = hash
}

const trace = async (name: string): Promise<SourceFrame> =>
  rpcResult(edge.url, 'debug_traceTransaction', [hashes[name], { tracer: 'edgetrace_sourceTracer' }])

/** name → [before, after] of a frame's decoded variables. */
const byName = (frame: SourceFrame) =>
  Object.fromEntries(frame.storage!.variables.map((v: StorageVariable) => [v.name, [v.before, v.after]]))

/** The slot word anvil holds for the vault after the transaction `name`. */
const slotAfter = async (name: string, slot: `0x${string}`) => {
  const receipt = await rpcResult(anvil.url, 'eth_getTransactionReceipt', [hashes[name]])
  return BigInt(await rpcResult(anvil.url, 'eth_getStorageAt', [vault, slot, receipt.blockNumber]))
}

/** solc's layout of a variable, read from the compiler's output (not assumed here). */
const layoutOf = (label: string) =>
  (output.contracts['Vault.sol'].Vault.storageLayout.storage as Json[]).find((v) => v.label === label)!
const slotOf = (label: string) => BigInt(layoutOf(label).slot)
const word = (n: bigint) => padHex(`0x${n.toString(16)}`, { size: 32 })
const lineOf = (text: string) => SOURCE.slice(0, SOURCE.indexOf(text)).split('\n').length

beforeAll(async () => {
  const compiled = compile()
  output = compiled.output
  anvil = await startAnvil()
  // Block 1's parent is anvil's genesis, whose state cannot be proven: the deployment goes in block 2.
  await rpcResult(anvil.url, 'evm_mine')
  const creation = `0x${output.contracts['Vault.sol'].Vault.evm.bytecode.object}`
  const hash = await rpcResult(anvil.url, 'eth_sendTransaction', [{ from: ME, data: creation, gas: '0x300000' }])
  vault = (await waitForReceipt(anvil.url, hash)).contractAddress
  hashes.deploy = hash
  const call = (functionName: (typeof ABI)[number]['name'], args: readonly unknown[]) =>
    encodeFunctionData({ abi: ABI, functionName, args } as never)
  await send('deposit', call('deposit', [250n]))
  await send('approve', call('approve', [SPENDER, 77n]))
  await send('push 11', call('push', [11n]))
  await send('push 22', call('push', [22n]))
  await send('setConfig', call('setConfig', [500n, 9n, false]))
  await send('setLabel', call('setLabel', ['hello vault']))
  await send('setLabel long', call('setLabel', [LONG]))
  await send('deposit too much', call('deposit', [5000n]), false)
  edge = await startEdgetrace({
    upstream: anvil.url,
    port: 0,
    hardfork: 'prague',
    api: ['eth', 'debug'],
    engine: { sources: createSourceRegistry(readStandardJson(output, compiled.input)) },
  })
}, 120_000)
afterAll(async () => {
  await edge?.close()
  await anvil?.stop()
})

describe('edgetrace_sourceTracer: storage as variables', () => {
  it("a mapping entry by the key hashed, a packed pair of small uints, the call and its event by the contract's ABI", async () => {
    const top = await trace('deposit')
    expect([top.contract, top.function]).toEqual(['Vault', 'deposit'])
    expect(top.call).toEqual({
      name: 'deposit',
      signature: 'deposit(uint256)',
      args: [{ name: 'amount', type: 'uint256', value: '250' }],
    })
    const vars = byName(top)
    expect(vars[`balances[${ME}]`]).toEqual(['0', '250'])
    expect(vars.minted).toEqual(['0', '250'])
    expect(vars.count).toEqual(['0', '1'])
    // The pair shares one slot, at the offsets solc gave them.
    const minted = top.storage!.variables.find((v) => v.name === 'minted')!
    const count = top.storage!.variables.find((v) => v.name === 'count')!
    expect(minted.slot).toBe(count.slot)
    expect([minted.offset, count.offset]).toEqual([layoutOf('minted').offset, layoutOf('count').offset])
    expect(count.offset).toBe(16)
    // The entry's slot is keccak256(key . slot), and anvil holds 250 there after the transaction.
    const entry = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [ME, slotOf('balances')]))
    expect(top.storage!.variables.find((v) => v.name === `balances[${ME}]`)!.slot).toBe(entry)
    expect(await slotAfter('deposit', entry)).toBe(250n)
    expect(await slotAfter('deposit', word(slotOf('minted')))).toBe(250n | (1n << 128n))
    // config.limit and config.paused were read (their slot holds fee too): shown, unchanged.
    expect(vars['config.limit']).toEqual(['1000', '1000'])
    expect(vars['config.paused']).toEqual(['false', 'false'])
    expect(vars['config.fee']).toEqual(['3', '3'])
    expect(top.storage!.raw).toEqual([])
    expect(top.events).toEqual([
      expect.objectContaining({
        address: vault,
        name: 'Deposited',
        signature: 'Deposited(address,uint256)',
        args: [
          { name: 'who', type: 'address', value: ME },
          { name: 'amount', type: 'uint256', value: '250' },
        ],
      }),
    ])
    expect(top.revertError).toBeNull()
  })

  it("a creation's storage, by the layout of the contract its init code matched (the creation bytecode, asked here without its source map: no lines)", async () => {
    const top = await trace('deploy')
    expect([top.type, top.contract, top.function, top.address]).toEqual(['CREATE', 'Vault', 'constructor', vault])
    expect(top.steps.every((s) => s.line === null)).toBe(true)
    const vars = byName(top)
    expect(vars.owner).toEqual(['0x0000000000000000000000000000000000000000', ME])
    expect(vars['config.limit']).toEqual(['0', '1000'])
    expect(vars['config.fee']).toEqual(['0', '3'])
    expect(vars['config.paused']).toEqual(['false', 'false'])
    expect(vars['config.admin']).toEqual(['0x0000000000000000000000000000000000000000', ME])
    expect(top.storage!.raw).toEqual([])
  })

  it('a nested mapping: allowance[owner][spender]', async () => {
    const top = await trace('approve')
    expect(top.storage!.variables.map((v) => [v.name, v.before, v.after, v.changed])).toEqual([
      [`allowance[${ME}][${SPENDER}]`, '0', '77', true],
    ])
    const outer = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [ME, slotOf('allowance')]))
    const inner = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'bytes32' }], [SPENDER, outer]))
    expect(top.storage!.variables[0]!.slot).toBe(inner)
    expect(await slotAfter('approve', inner)).toBe(77n)
  })

  it('a dynamic array: its length and the element pushed at keccak256(slot) + i', async () => {
    const top = await trace('push 22')
    const vars = byName(top)
    expect(vars['items.length']).toEqual(['1', '2'])
    expect(vars['items[1]']).toEqual(['0', '22'])
    const data = BigInt(keccak256(word(slotOf('items'))))
    expect(top.storage!.variables.find((v) => v.name === 'items[1]')!.slot).toBe(word(data + 1n))
    expect(await slotAfter('push 22', word(data + 1n))).toBe(22n)
    expect(Object.keys(vars).sort()).toEqual(['items.length', 'items[1]'])
  })

  it('a packed struct: each field of the slot written, by its name and offset', async () => {
    const top = await trace('setConfig')
    const vars = byName(top)
    expect(vars['config.limit']).toEqual(['1000', '500'])
    expect(vars['config.fee']).toEqual(['3', '9'])
    expect(vars['config.paused']).toEqual(['false', 'false'])
    expect(vars['config.admin']).toBeUndefined() // its own slot, not touched
    const limit = BigInt(await slotAfter('setConfig', word(slotOf('config'))))
    expect(limit & ((1n << 128n) - 1n)).toBe(500n)
    expect((limit >> 128n) & ((1n << 64n) - 1n)).toBe(9n)
  })

  it('a short string, whole, and an enum packed beside an address', async () => {
    const top = await trace('setLabel')
    const vars = byName(top)
    expect(vars.label).toEqual(['""', '"hello vault"'])
    expect(vars.mode).toEqual(['0', '1'])
    expect(vars.owner).toEqual([ME, ME])
    expect(top.call?.args).toEqual([{ name: 'text', type: 'string', value: 'hello vault' }])
    // A long one: whole, its data slots (all written) part of it.
    const long = await trace('setLabel long')
    expect(byName(long).label).toEqual(['"hello vault"', JSON.stringify(LONG)])
    expect(long.storage!.raw).toEqual([])
    const data = BigInt(keccak256(word(slotOf('label'))))
    expect(await slotAfter('setLabel long', word(slotOf('label')))).toBe(BigInt(LONG.length) * 2n + 1n)
    expect(await slotAfter('setLabel long', word(data + 1n))).toBeGreaterThan(0n)
  })

  it('a custom error decoded by the ABI, with the line of its revert; a Panic and an Error(string) too', async () => {
    const top = await trace('deposit too much')
    expect(top.reverted).toBe(true)
    expect(top.revertError).toMatchObject({
      kind: 'custom',
      name: 'Exceeded',
      signature: 'Exceeded(address,uint256,uint256)',
      args: [
        { name: 'who', type: 'address', value: ME },
        { name: 'wanted', type: 'uint256', value: '5000' },
        { name: 'limit', type: 'uint256', value: '500' },
      ],
    })
    expect(top.revert).toEqual({ file: 'Vault.sol', line: lineOf('revert Exceeded(') })
    // Reverted: nothing written, the slots read shown unchanged.
    expect(top.storage!.variables.every((v) => !v.changed)).toBe(true)
    expect(top.events).toEqual([])

    const panic: SourceFrame = await rpcResult(edge.url, 'debug_traceCall', [
      { from: ME, to: vault, data: encodeFunctionData({ abi: ABI, functionName: 'at', args: [99n] }) },
      'latest',
      { tracer: 'edgetrace_sourceTracer' },
    ])
    expect(panic.revertError).toMatchObject({
      kind: 'Panic',
      args: [{ name: 'code', type: 'uint256', value: '50' }],
      message: 'out-of-bounds access of an array or bytesN',
    })
    expect(byName(panic)['items.length']).toEqual(['2', '2'])

    const paused: SourceFrame = await rpcResult(edge.url, 'debug_traceCall', [
      { from: ME, to: vault, data: encodeFunctionData({ abi: ABI, functionName: 'deposit', args: [1n] }) },
      'latest',
      {
        tracer: 'edgetrace_sourceTracer',
        stateOverrides: { [vault]: { stateDiff: { [word(slotOf('config'))]: word(500n | (1n << 192n)) } } },
      },
    ])
    expect(paused.revertError).toMatchObject({ kind: 'Error', message: 'paused' })
    expect(paused.revert).toEqual({ file: 'Vault.sol', line: lineOf('require(!config.paused, "paused")') })
    expect(byName(paused)['config.paused']).toEqual(['true', 'true'])
  })
})
