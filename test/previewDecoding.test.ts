import { encodeAbiParameters, getAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeCall } from '../src/node/devnet/abi.js'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { quantity } from '../src/utils/hex.js'
import { compileSolidity } from './src/compileSolidity.js'
import { type Proxy, createProxy } from './src/createProxy.js'
import { withDevnet } from './src/devnet.js'
import { deploy, rpc, rpcResult, waitForReceipt } from './src/rpc.js'

// edgetrace_previewTransactions names what it previews: each call's function and a custom error's
// name and arguments, by the bundled selector table (src/utils/abi) or an ABI the app supplies in
// options.abis; and it reads a token's metadata once per (address, code hash). On the devnet, with
// contracts compiled here, edgetrace in front of a counting proxy.

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;
/// An ERC-20 as OpenZeppelin v5 writes its errors (ERC-6093), its name and symbol in storage.
contract OzToken {
    error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed);
    event Transfer(address indexed from, address indexed to, uint256 value);
    string public name;
    string public symbol;
    uint8 public constant decimals = 6;
    mapping(address => uint256) public balanceOf;
    constructor(string memory n, string memory s, address holder) {
        name = n;
        symbol = s;
        balanceOf[holder] = 1e12;
        emit Transfer(address(0), holder, 1e12);
    }
    function transfer(address to, uint256 value) external returns (bool) {
        uint256 has = balanceOf[msg.sender];
        if (has < value) revert ERC20InsufficientBalance(msg.sender, has, value);
        balanceOf[msg.sender] = has - value;
        balanceOf[to] += value;
        emit Transfer(msg.sender, to, value);
        return true;
    }
}
/// A contract whose function and error no bundled table knows.
contract Vault {
    error Mystery(uint256 code, address who);
    function poke(uint256 code) external view { revert Mystery(code, msg.sender); }
}
`

const VAULT_ABI = [
  { type: 'function', name: 'poke', stateMutability: 'view', inputs: [{ name: 'code', type: 'uint256' }], outputs: [] },
  {
    type: 'error',
    name: 'Mystery',
    inputs: [
      { name: 'code', type: 'uint256' },
      { name: 'who', type: 'address' },
    ],
  },
]

let devnet: Devnet
let proxy: Proxy
let edge: RunningEdgetrace
let alice: `0x${string}`
let bob: `0x${string}`
let carol: `0x${string}`
let alpha: `0x${string}`
let beta: `0x${string}`
let vault: `0x${string}`

beforeAll(async () => {
  devnet = await withDevnet()
  ;[alice, bob, carol] = devnet.accounts as [`0x${string}`, `0x${string}`, `0x${string}`]
  proxy = await createProxy(devnet.anvil.url)
  edge = await startEdgetrace({ upstream: proxy.url, port: 0, hardfork: 'prague' })
  const compiled = compileSolidity('Decoding.sol', SOURCE)
  const token = (name: string, symbol: string) =>
    deploy(
      devnet.anvil.url,
      `${compiled.OzToken!.creation}${encodeAbiParameters(
        [{ type: 'string' }, { type: 'string' }, { type: 'address' }],
        [name, symbol, alice],
      ).slice(2)}`,
    )
  // Two deployments of the same code, with different names in storage.
  alpha = await token('Alpha Token', 'ALP')
  beta = await token('Beta Token', 'BET')
  vault = await deploy(devnet.anvil.url, compiled.Vault!.creation)
}, 60_000)
afterAll(async () => {
  await edge?.close()
  await proxy?.stop()
  await devnet?.stop()
})

const latest = async () => BigInt(await rpcResult(devnet.anvil.url, 'eth_blockNumber'))
const transfer = (token: string, to: string, amount: bigint) => ({
  from: alice,
  to: token,
  data: encodeCall('transfer(address,uint256)', [to as `0x${string}`, amount]),
})
const preview = (calls: unknown[], block: bigint | string = 'latest', options?: unknown) =>
  rpc(edge.url, 'edgetrace_previewTransactions', [
    calls,
    typeof block === 'bigint' ? quantity(block) : block,
    ...(options === undefined ? [] : [options]),
  ])

describe('edgetrace_previewTransactions names functions and errors', () => {
  it("a call reverting with OpenZeppelin's ERC20InsufficientBalance: the error named, its arguments decoded; the function named", async () => {
    const res = await preview([transfer(alpha, bob, 2n * 10n ** 12n)])
    expect(res.error).toBeUndefined()
    const [call] = res.result.calls
    expect(call.status).toBe('failure')
    expect(call.function).toEqual({ selector: '0xa9059cbb', name: 'transfer', signature: 'transfer(address,uint256)' })
    expect(call.revert).toEqual({
      type: 'custom',
      selector: '0xe450d38c',
      name: 'ERC20InsufficientBalance',
      signature: 'ERC20InsufficientBalance(address,uint256,uint256)',
      args: [
        { name: 'sender', type: 'address', value: alice },
        { name: 'balance', type: 'uint256', value: quantity(10n ** 12n) },
        { name: 'needed', type: 'uint256', value: quantity(2n * 10n ** 12n) },
      ],
      // The same data as anvil answers eth_call with.
      data: (await rpc(devnet.anvil.url, 'eth_call', [transfer(alpha, bob, 2n * 10n ** 12n), 'latest'])).error.data,
    })
  })

  it('an unknown custom error stays raw with its selector; an unknown function is null', async () => {
    const res = await preview([{ from: alice, to: vault, data: encodeCall('poke(uint256)', [7n]) }])
    const [call] = res.result.calls
    expect(call.status).toBe('failure')
    expect(call.function).toBeNull()
    const data = (
      await rpc(devnet.anvil.url, 'eth_call', [
        { from: alice, to: vault, data: encodeCall('poke(uint256)', [7n]) },
        'latest',
      ])
    ).error.data
    expect(data).toMatch(/^0x[0-9a-f]{8}0{63}7/)
    expect(call.revert).toEqual({ type: 'unknown', selector: data.slice(0, 10), data })
    // A call that succeeds has its function named and no revert.
    const ok = await preview([transfer(alpha, bob, 1n)])
    expect(ok.result.calls[0]).toMatchObject({ status: 'success', revert: null, function: { name: 'transfer' } })
  })

  it("an app's ABI (options.abis, keyed in any case) names an otherwise unknown function and error", async () => {
    const res = await preview([{ from: alice, to: vault, data: encodeCall('poke(uint256)', [7n]) }], 'latest', {
      abis: { [getAddress(vault)]: VAULT_ABI },
    })
    expect(res.error).toBeUndefined()
    const [call] = res.result.calls
    expect(call.function).toEqual({
      selector: encodeCall('poke(uint256)', [7n]).slice(0, 10),
      name: 'poke',
      signature: 'poke(uint256)',
    })
    expect(call.revert).toMatchObject({
      type: 'custom',
      name: 'Mystery',
      signature: 'Mystery(uint256,address)',
      args: [
        { name: 'code', type: 'uint256', value: '0x7' },
        { name: 'who', type: 'address', value: alice },
      ],
    })
    // Another address's ABI does not name the call's function, but may name an error that came up through it.
    const other = await preview([{ from: alice, to: vault, data: encodeCall('poke(uint256)', [7n]) }], 'latest', {
      abis: { [alpha]: VAULT_ABI },
    })
    expect(other.result.calls[0].function).toBeNull()
    expect(other.result.calls[0].revert.name).toBe('Mystery')
  })

  it('bad options.abis: -32602 naming options.abis and the entry; the server keeps serving', async () => {
    const many = Object.fromEntries(
      Array.from({ length: 33 }, (_, i) => [`0x${(i + 1).toString(16).padStart(40, '0')}`, []]),
    )
    const cases: [unknown, string][] = [
      ['abi', 'invalid argument 2: options.abis: expected an object of address → JSON ABI, got string "abi"'],
      [{ '0x12': [] }, 'invalid argument 2: options.abis: key string "0x12" is not an address'],
      [{ [vault]: { type: 'function' } }, `invalid argument 2: options.abis["${vault}"]: expected a JSON ABI`],
      [
        { [vault]: [{ type: 'error', name: 'E', inputs: [{ name: 'x', type: 'uint7' }] }] },
        `invalid argument 2: options.abis["${vault}"][0].inputs[0].type: "uint7" is not a type this decoder reads`,
      ],
      [many, 'invalid argument 2: options.abis: 33 addresses, at most 32'],
      [
        { [vault]: Array(1001).fill({ type: 'fallback' }) },
        `invalid argument 2: options.abis["${vault}"]: 1001 items, at most 1000`,
      ],
    ]
    for (const [abis, message] of cases) {
      const res = await preview([transfer(alpha, bob, 1n)], 'latest', { abis })
      expect(res.error?.code, message).toBe(-32602)
      expect(res.error.message.startsWith(message), res.error.message).toBe(true)
    }
    expect((await preview([transfer(alpha, bob, 1n)])).result.calls[0].status).toBe('success')
  })
})

describe('token metadata cached by (address, code hash)', () => {
  /** Mines a block in which the token's storage changes (a real transfer), so its proofs are new. */
  const mineTransfer = async (token: string) => {
    const hash = await rpcResult(devnet.anvil.url, 'eth_sendTransaction', [transfer(token, carol, 3n)])
    await waitForReceipt(devnet.anvil.url, hash)
    return latest()
  }
  /** A preview at `block`, what the upstream was asked meanwhile and how long it took. */
  const measured = async (calls: unknown[], block: bigint) => {
    const [requests, asked] = [proxy.requests, proxy.log.length]
    const started = performance.now()
    const res = await preview(calls, block)
    const ms = performance.now() - started
    expect(res.error).toBeUndefined()
    const log = proxy.log.slice(asked)
    return {
      res: res.result,
      ms,
      requests: proxy.requests - requests,
      calls: log.length,
      proofs: log.filter((c) => c.method === 'eth_getProof').length,
    }
  }
  const forget = () => {
    for (const key of edge.engine.cache.keys()) if (key.startsWith('tm:')) edge.engine.cache.delete(key)
  }
  const tokensOf = (res: any) => res.assetChanges.slice(1).map((c: any) => c.token)

  it('two deployments of the same code keep their own names; a preview at a new block skips the reads, same answer', async () => {
    const calls = [transfer(alpha, bob, 5n), transfer(beta, bob, 6n)]
    const names = [
      { address: alpha, standard: 'erc20', symbol: 'ALP', name: 'Alpha Token', decimals: 6 },
      { address: beta, standard: 'erc20', symbol: 'BET', name: 'Beta Token', decimals: 6 },
    ]
    forget()
    const cold = await measured(calls, await latest())
    expect(tokensOf(cold.res)).toEqual(names)
    expect(edge.engine.cache.keys().filter((k) => k.startsWith('tm:'))).toHaveLength(2)

    // Warm, at a new block where both tokens' storage changed: metadata from the cache.
    await mineTransfer(alpha)
    const cached = await measured(calls, await mineTransfer(beta))
    expect(tokensOf(cached.res)).toEqual(names)
    // The same at the next new block with the cache emptied: what the preview costs without it.
    await mineTransfer(alpha)
    const block = await mineTransfer(beta)
    forget()
    const uncached = await measured(calls, block)
    expect(tokensOf(uncached.res)).toEqual(names)
    console.log(
      `token metadata cache, warm preview of two token transfers at a new block: cached ${cached.requests} requests (${cached.calls} calls, ${cached.proofs} eth_getProof), ${cached.ms.toFixed(0)} ms; uncached ${uncached.requests} requests (${uncached.calls} calls, ${uncached.proofs} eth_getProof), ${uncached.ms.toFixed(0)} ms`,
    )
    expect(cached.calls).toBeLessThan(uncached.calls)
    expect(cached.requests).toBeLessThanOrEqual(uncached.requests)
  })
})
