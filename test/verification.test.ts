import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { type Proxy, type ProxyHooks, createProxy } from './src/createProxy.js'
import { DEV_ACCOUNT, deploy, rpc, rpcResult, storageContractInitCode } from './src/rpc.js'

// Every value edgetrace uses is proven against the block: a lying upstream (a tampering proxy in
// front of a real anvil) gets an error that names block, address and slot — never a result.

let anvil: AnvilInstance
let contract: `0x${string}`
let block: { number: string; hash: string }
let proxy: Proxy
let edge: RunningEdgetrace | undefined

const flip = (hex: string, at = -3) => {
  const i = hex.length + at
  return hex.slice(0, i) + (hex[i] === '0' ? '1' : '0') + hex.slice(i + 1)
}

async function edgeVia(hooks: ProxyHooks, opts: { unverified?: boolean; api?: string[] } = {}) {
  proxy.hooks = hooks
  edge = await startEdgetrace({
    upstream: proxy.url,
    port: 0,
    hardfork: 'prague',
    ...(opts.api ? { api: opts.api } : {}),
    engine: { unverified: opts.unverified ?? false },
  })
  return edge
}

const call = () => ({ from: DEV_ACCOUNT, to: contract, data: '0x' })
/** keccak256(rlp('')): the root of an empty trie. */
const EMPTY_TRIE_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421'

beforeAll(async () => {
  anvil = await startAnvil()
  contract = await deploy(anvil.url, storageContractInitCode(42))
  await rpcResult(anvil.url, 'evm_mine', [])
  block = await rpcResult(anvil.url, 'eth_getBlockByNumber', ['latest', false])
  proxy = await createProxy(anvil.url)
})
afterEach(async () => {
  await edge?.close()
  edge = undefined
})
afterAll(async () => {
  await proxy.stop()
  await anvil.stop()
})

describe('verified state', () => {
  it('an honest upstream gives the same answer as the node itself', async () => {
    const e = await edgeVia({})
    const expected = await rpcResult(anvil.url, 'eth_call', [call(), block.number])
    expect(expected).toBe(`0x${'2a'.padStart(64, '0')}`)
    expect(await rpcResult(e.url, 'eth_call', [call(), block.number])).toBe(expected)
    expect(await rpcResult(e.url, 'eth_call', [call(), { blockHash: block.hash }])).toBe(expected)
  })

  it('refuses a tampered account proof, naming block and address', async () => {
    const e = await edgeVia({
      transform: (c, result: any) =>
        c.method === 'eth_getProof' && c.params[0] === contract
          ? {
              ...result,
              accountProof: result.accountProof.map((n: string, i: number, a: string[]) =>
                i === a.length - 1 ? flip(n) : n,
              ),
            }
          : result,
    })
    const { error } = await rpc(e.url, 'eth_call', [call(), block.number])
    expect(error.code).toBe(-32000)
    // One line naming what failed and the block; where exactly, as data.
    expect(error.message).toBe(
      `state does not verify: account proof does not verify against the stateRoot (block ${BigInt(block.number)}): proof is missing nodes on the path to the key`,
    )
    expect(error.data).toMatchObject({ block: { number: block.number, hash: block.hash }, address: contract })
    // The server keeps serving.
    expect((await rpc(e.url, 'web3_clientVersion', [])).error).toMatchObject({ code: -32601 })
    expect(await rpcResult(e.url, 'eth_chainId', [])).toBe(`0x${anvil.chainId.toString(16)}`)
  })

  it('refuses account fields that differ from what the proof proves', async () => {
    const e = await edgeVia({
      transform: (c, result: any) =>
        c.method === 'eth_getProof' && c.params[0] === DEV_ACCOUNT ? { ...result, balance: '0x1' } : result,
    })
    const { error } = await rpc(e.url, 'eth_call', [call(), block.number])
    expect(error.message).toContain('account fields differ from what the proof proves')
    expect(error.data.address).toBe(DEV_ACCOUNT)
  })

  it('refuses a tampered storage value, naming the slot', async () => {
    const e = await edgeVia({
      transform: (c, result: any) =>
        c.method === 'eth_getProof' && result.storageProof.length > 0
          ? { ...result, storageProof: result.storageProof.map((s: any) => ({ ...s, value: '0x2b' })) }
          : result,
    })
    const { error } = await rpc(e.url, 'eth_call', [call(), block.number])
    expect(error.message).toContain('storage value differs from what the proof proves')
    expect(error.data).toMatchObject({ address: contract, slot: `0x${'0'.repeat(64)}` })
  })

  it('refuses a tampered storage proof', async () => {
    const e = await edgeVia({
      transform: (c, result: any) =>
        c.method === 'eth_getProof' && result.storageProof.length > 0
          ? {
              ...result,
              storageProof: result.storageProof.map((s: any) => ({ ...s, proof: s.proof.map((n: string) => flip(n)) })),
            }
          : result,
    })
    const { error } = await rpc(e.url, 'eth_call', [call(), block.number])
    expect(error.message).toContain('storage proof does not verify against the storageRoot')
    expect(error.data.slot).toMatch(/^0x[0-9a-f]{64}$/)
  })

  it('refuses code that does not hash to the codeHash', async () => {
    const e = await edgeVia({
      transform: (c, result) => (c.method === 'eth_getCode' ? '0x60016000f3' : result),
    })
    const { error } = await rpc(e.url, 'eth_call', [call(), block.number])
    expect(error.message).toContain('code does not match the account codeHash')
    expect(error.data.address).toBe(contract)
  })

  it('refuses a header that does not hash to its block hash', async () => {
    const e = await edgeVia({
      transform: (c, result: any) =>
        c.method.startsWith('eth_getBlockBy') && result ? { ...result, stateRoot: flip(result.stateRoot) } : result,
    })
    const { error } = await rpc(e.url, 'eth_call', [call(), block.number])
    expect(error.message).toContain('header does not verify')
    expect(error.message).toContain('keccak256(RLP(header))')
  })

  it('refuses a header that is not the block asked for by hash', async () => {
    const other = await rpcResult(anvil.url, 'eth_getBlockByNumber', ['0x1', false])
    const e = await edgeVia({
      transform: (c, result) => (c.method === 'eth_getBlockByHash' ? other : result),
    })
    const { error } = await rpc(e.url, 'eth_call', [call(), { blockHash: block.hash }])
    expect(error.message).toContain(`asked for block ${block.hash}`)
  })

  it("anvil's genesis (its header commits to an empty state, its accounts funded): one line saying block 1's parent state cannot be proven and what to do; the facts as data", async () => {
    const e = await edgeVia({}, { api: ['eth', 'debug'] })
    const { error } = await rpc(e.url, 'eth_call', [call(), '0x0'])
    expect(error.code).toBe(-32000)
    expect(error.message).toBe(
      "state does not verify: block 1's parent state (a genesis like anvil's, whose header commits to an empty state) cannot be proven: mine one empty block first",
    )
    expect(error.message.length).toBeLessThanOrEqual(160)
    const genesis = await rpcResult(anvil.url, 'eth_getBlockByNumber', ['0x0', false])
    const { accountProof } = await rpcResult(anvil.url, 'eth_getProof', [DEV_ACCOUNT, [], '0x0'])
    expect(genesis.stateRoot).toBe(EMPTY_TRIE_ROOT)
    expect(error.data).toEqual({
      block: { number: '0x0', hash: genesis.hash },
      address: DEV_ACCOUNT,
      expectedRoot: EMPTY_TRIE_ROOT,
      // The state anvil holds and proves from, which its genesis header does not commit to.
      gotRoot: bytesToHex(keccak_256(hexToBytes(accountProof[0]))),
    })
    // The first transaction of a fresh anvil (the deployment) is in block 1: its trace starts from block 0's state.
    const first = (await rpcResult(anvil.url, 'eth_getBlockByNumber', ['0x1', false])).transactions[0]
    const trace = await rpc(e.url, 'debug_traceTransaction', [first, { tracer: 'callTracer' }])
    expect(trace.error.message).toBe(error.message)
    expect(trace.error.data).toMatchObject({ block: error.data.block, expectedRoot: EMPTY_TRIE_ROOT })
  })

  it('--unverified works with an upstream that has no eth_getProof', async () => {
    const e = await edgeVia({ refuseMethods: ['eth_getProof'] }, { unverified: true })
    const expected = await rpcResult(anvil.url, 'eth_call', [call(), block.number])
    expect(await rpcResult(e.url, 'eth_call', [call(), block.number])).toBe(expected)
    expect(proxy.calls.get('eth_getStorageAt')).toBeGreaterThan(0)
  })

  it('without --unverified, an upstream with no eth_getProof is an error, not an unverified answer', async () => {
    const e = await edgeVia({ refuseMethods: ['eth_getProof'] })
    const { error } = await rpc(e.url, 'eth_call', [call(), block.number])
    expect(error.code).toBe(-32000)
    expect(error.message).toContain(
      'the upstream does not serve eth_getProof, so state cannot be verified: start edgetrace with --unverified',
    )
  })
})

// The same failures as structured JSON-RPC `data`, so a client need not parse the message.
describe('verification failures carry data', () => {
  const keccak = (hex: string) => bytesToHex(keccak_256(hexToBytes(hex as `0x${string}`)))
  const flipFirst = (nodes: string[]) => nodes.map((n, i) => (i === 0 ? flip(n) : n))
  const at = () => ({ number: block.number, hash: block.hash })

  it('an account proof rooted elsewhere: block, address, the stateRoot and the root it is rooted at', async () => {
    const { stateRoot } = await rpcResult(anvil.url, 'eth_getBlockByHash', [block.hash, false])
    let tampered: string | undefined
    const e = await edgeVia({
      transform: (c, result: any) => {
        if (c.method !== 'eth_getProof' || c.params[0] !== contract) return result
        const accountProof = flipFirst(result.accountProof)
        tampered = accountProof[0]
        return { ...result, accountProof }
      },
    })
    const { error } = await rpc(e.url, 'eth_call', [call(), block.number])
    expect(error.code).toBe(-32000)
    expect(error.message).toContain('state does not verify: account proof does not verify against the stateRoot')
    expect(error.data).toEqual({ block: at(), address: contract, expectedRoot: stateRoot, gotRoot: keccak(tampered!) })
  })

  it('a storage proof rooted elsewhere: block, address, slot, the storageRoot and the root it is rooted at', async () => {
    const slot = `0x${'0'.repeat(64)}`
    const { storageHash } = await rpcResult(anvil.url, 'eth_getProof', [contract, [slot], block.hash])
    let tampered: string | undefined
    const e = await edgeVia({
      transform: (c, result: any) => {
        if (c.method !== 'eth_getProof' || result.storageProof.length === 0) return result
        const storageProof = result.storageProof.map((s: any) => ({ ...s, proof: flipFirst(s.proof) }))
        tampered = storageProof[0].proof[0]
        return { ...result, storageProof }
      },
    })
    const { error } = await rpc(e.url, 'eth_call', [call(), block.number])
    expect(error.code).toBe(-32000)
    expect(error.message).toContain('storage proof does not verify against the storageRoot')
    expect(error.data).toEqual({
      block: at(),
      address: contract,
      slot,
      expectedRoot: storageHash,
      gotRoot: keccak(tampered!),
    })
  })

  it('a tampered storage value: block, address and slot', async () => {
    const e = await edgeVia({
      transform: (c, result: any) =>
        c.method === 'eth_getProof' && result.storageProof.length > 0
          ? { ...result, storageProof: result.storageProof.map((s: any) => ({ ...s, value: '0x2b' })) }
          : result,
    })
    const { error } = await rpc(e.url, 'eth_call', [call(), block.number])
    expect(error.code).toBe(-32000)
    expect(error.data).toEqual({ block: at(), address: contract, slot: `0x${'0'.repeat(64)}` })
  })

  it('code that does not hash to the codeHash: block, address, the codeHash and the hash of the code sent', async () => {
    const { codeHash } = await rpcResult(anvil.url, 'eth_getProof', [contract, [], block.hash])
    const e = await edgeVia({
      transform: (c, result) => (c.method === 'eth_getCode' ? '0x60016000f3' : result),
    })
    const { error } = await rpc(e.url, 'eth_call', [call(), block.number])
    expect(error.code).toBe(-32000)
    expect(error.message).toContain('code does not match the account codeHash')
    expect(error.data).toEqual({
      block: at(),
      address: contract,
      expectedHash: codeHash,
      gotHash: keccak('0x60016000f3'),
    })
  })

  it('a header that does not hash to its block hash: block, the claimed hash and the computed one', async () => {
    const e = await edgeVia({
      transform: (c, result: any) =>
        c.method.startsWith('eth_getBlockBy') && result ? { ...result, stateRoot: flip(result.stateRoot) } : result,
    })
    const { error } = await rpc(e.url, 'eth_call', [call(), block.number])
    expect(error.code).toBe(-32000)
    expect(error.message).toContain('keccak256(RLP(header))')
    expect(error.data).toMatchObject({ block: at(), expectedHash: block.hash })
    expect(error.data.gotHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(error.data.gotHash).not.toBe(block.hash)
  })
})
