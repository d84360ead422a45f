import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DevnetBeaconNode, startDevnetBeacon } from '../src/node/devnet/startDevnetBeacon.js'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import { DEV_ACCOUNT, rpc, rpcResult, sendMined } from './src/rpc.js'
import { runCli } from './src/runCli.js'

// The devnet's beacon chain (src/node/devnet/startDevnetBeacon.ts): a slot for every block anvil
// mines, its light-client endpoints on loopback; `npm start -- --devnet.beacon` starts edgetrace on it
// in trust mode consensus, where the plain devnet stays in trust mode upstream.

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`
const get = async (url: string) => {
  const res = await fetch(url)
  return { status: res.status, cors: res.headers.get('access-control-allow-origin'), body: (await res.json()) as any }
}

describe('a beacon chain following anvil', () => {
  let anvil: AnvilInstance
  let node: DevnetBeaconNode
  beforeAll(async () => {
    anvil = await startAnvil()
    await rpcResult(anvil.url, 'anvil_mine', ['0x5'])
    node = await startDevnetBeacon({ executionUrl: anvil.url })
  })
  afterAll(async () => {
    await node?.close()
    await anvil?.stop()
  })

  it("gives every block anvil mines a slot: the optimistic update attests anvil's latest, its payload header that block", async () => {
    const optimistic = async () =>
      (await get(`${node.url}/eth/v1/beacon/light_client/optimistic_update`)).body.data.attested_header
    let attested = await optimistic()
    let block = await rpcResult(anvil.url, 'eth_getBlockByNumber', ['latest', false])
    expect(attested.beacon.slot).toBe('5')
    expect(attested.execution.block_hash).toBe(block.hash)
    // A transaction mined since (anvil answers its hash before it mines it: its receipt is waited for): the next answer carries its block.
    await sendMined(anvil.url, { from: DEV_ACCOUNT, to: DEV_ACCOUNT, value: '0x1' })
    attested = await optimistic()
    block = await rpcResult(anvil.url, 'eth_getBlockByNumber', ['latest', false])
    expect(attested.beacon.slot).toBe('6')
    expect(attested.execution.block_hash).toBe(block.hash)
    expect(attested.execution.state_root).toBe(block.stateRoot)
    // The checkpoint is slot 0's root, whose block carries anvil's genesis.
    expect(node.checkpoint).toBe(hex(node.beacon.rootAt(0)))
    const boot = await get(`${node.url}/eth/v1/beacon/light_client/bootstrap/${node.checkpoint}`)
    expect(boot.body.data.header.execution.block_hash).toBe(
      (await rpcResult(anvil.url, 'eth_getBlockByNumber', ['0x0', false])).hash,
    )
  })

  it('is a chain of its own per devnet: the genesis validators root follows the execution genesis, so an earlier devnet’s pin is never this one’s', async () => {
    const genesisRoot = async (url: string) =>
      (await get(`${url}/eth/v1/beacon/genesis`)).body.data.genesis_validators_root as string
    // The same anvil followed again: the same beacon chain.
    const again = await startDevnetBeacon({ executionUrl: anvil.url })
    // Another anvil (another genesis: its own start time): another beacon chain.
    const other = await startAnvil({ args: ['--timestamp', '1800000000'] })
    const otherNode = await startDevnetBeacon({ executionUrl: other.url })
    try {
      expect(await genesisRoot(again.url)).toBe(await genesisRoot(node.url))
      expect(await genesisRoot(otherNode.url)).not.toBe(await genesisRoot(node.url))
      expect(hex(otherNode.beacon.genesisValidatorsRoot)).toBe(await genesisRoot(otherNode.url))
    } finally {
      await Promise.all([again.close(), otherNode.close()])
      await other.stop()
    }
  })

  it('signs a head once: asked again until the next block, the answer comes from memory', async () => {
    const ask = () => get(`${node.url}/eth/v1/beacon/light_client/optimistic_update`)
    const first = await ask()
    const before = node.beacon.signatures
    const again = await ask()
    expect(again.body).toEqual(first.body)
    expect(node.beacon.signatures).toBe(before)
    await rpcResult(anvil.url, 'anvil_mine', ['0x1'])
    const next = await ask()
    expect(Number(next.body.data.attested_header.beacon.slot)).toBe(
      Number(first.body.data.attested_header.beacon.slot) + 1,
    )
    expect(node.beacon.signatures).toBe(before + 1)
  })

  it('serves browsers (any origin may read it) and follows anvil back when it reverts to a snapshot', async () => {
    const spec = await get(`${node.url}/eth/v1/config/spec`)
    expect(spec.cors).toBe('*')
    expect(spec.body.data.PRESET_BASE).toBe('minimal')
    const snapshot = await rpcResult(anvil.url, 'evm_snapshot')
    await rpcResult(anvil.url, 'anvil_mine', ['0x3'])
    const before = (await get(`${node.url}/eth/v1/beacon/light_client/optimistic_update`)).body.data.attested_header
    await rpcResult(anvil.url, 'evm_revert', [snapshot])
    await rpcResult(anvil.url, 'evm_setNextBlockTimestamp', [`0x${(Math.floor(Date.now() / 1000) + 100).toString(16)}`])
    await rpcResult(anvil.url, 'anvil_mine', ['0x1'])
    const after = (await get(`${node.url}/eth/v1/beacon/light_client/optimistic_update`)).body.data.attested_header
    const block = await rpcResult(anvil.url, 'eth_getBlockByNumber', ['latest', false])
    expect(Number(after.beacon.slot)).toBe(Number(block.number))
    expect(after.execution.block_hash).toBe(block.hash)
    expect(after.execution.block_hash).not.toBe(before.execution.block_hash)
  })
})

describe('npm start -- --devnet.beacon', () => {
  it('starts the devnet with a beacon chain following anvil: trust mode consensus, and the head follows what anvil mines', async () => {
    const cli = await runCli(['--devnet.beacon', '--http.port', '0'], /open http:\/\/\S+|JSON-RPC at http:\/\/\S+/)
    try {
      expect(cli.output).toMatch(/starting the embedded local devnet \(anvil and a beacon chain following it\)/)
      expect(cli.output).toMatch(
        /trust: {6}consensus — a light client of the beacon node http:\/\/127\.0\.0\.1:\d+, from the beacon block root 0x[0-9a-f]{64}:/,
      )
      expect(cli.output).toMatch(/32\/32 of the sync committee signed/)
      // Nothing of the devnet's beacon chain is pinned, and the banner does not claim otherwise.
      expect(cli.output).toMatch(/the devnet beacon chain's slot 0 root: .*\(nothing pinned\)/)
      expect(cli.output).not.toMatch(/given with --checkpoint/)
      const url = cli.output.match(/listening: {2}(http:\/\/\S+)/)![1]!
      const anvilUrl = cli.output.match(/upstream: {3}(http:\/\/\S+)/)![1]!
      const trust = await rpcResult(url, 'edgetrace_trust')
      expect(trust.mode).toBe('consensus')
      expect(trust.checkpoint).toBe(cli.output.match(/beacon block root (0x[0-9a-f]{64})/)![1])
      expect(trust.participation).toEqual({ signed: 32, of: 32 })
      // The explorer page is told the devnet's beacon node and first root (its browser mode prefills them).
      const info = (await (await fetch(`${url}/explorer.json`)).json()) as Record<string, unknown>
      expect(info).toMatchObject({
        devnet: true,
        upstream: anvilUrl,
        beacon: cli.output.match(/a light client of the beacon node (http:\/\/127\.0\.0\.1:\d+)/)![1],
        beaconCheckpoint: trust.checkpoint,
      })
      const latest = await rpcResult(anvilUrl, 'eth_blockNumber')
      expect(await rpcResult(url, 'eth_blockNumber')).toBe(latest)
      expect(trust.optimistic.blockNumber).toBe(latest)
      // A block mined now gets a slot; edgetrace's head follows within a 1-second slot.
      await sendMined(anvilUrl, { from: DEV_ACCOUNT, to: DEV_ACCOUNT, value: '0x1' })
      const mined = await rpcResult(anvilUrl, 'eth_blockNumber')
      let head = ''
      for (let i = 0; i < 50 && head !== mined; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        head = (await rpc(url, 'eth_blockNumber')).result
      }
      expect(head).toBe(mined)
      expect((await rpcResult(url, 'edgetrace_trust')).optimistic.blockNumber).toBe(mined)
    } finally {
      cli.kill()
    }
  }, 60_000)

  it('the plain devnet stays in trust mode upstream', async () => {
    const cli = await runCli(['--http.port', '0'], /open http:\/\/\S+|JSON-RPC at http:\/\/\S+/)
    try {
      expect(cli.output).toMatch(/trust: {6}upstream — blocks asked by number or tag are the upstream's word/)
      const url = cli.output.match(/listening: {2}(http:\/\/\S+)/)![1]!
      expect(await rpcResult(url, 'edgetrace_trust')).toMatchObject({ mode: 'upstream', checkpoint: null })
      expect(await (await fetch(`${url}/explorer.json`)).json()).not.toHaveProperty('beacon')
    } finally {
      cli.kill()
    }
  }, 60_000)

  it('refuses --devnet.beacon with an upstream of its own, naming the flag', async () => {
    const cli = await runCli(['--devnet.beacon', '--upstream', 'http://127.0.0.1:1'], /never/)
    expect(cli.code).toBe(1)
    expect(cli.output).toMatch(/--devnet.beacon starts the embedded devnet .*: it cannot go with --upstream/)
  })
})
