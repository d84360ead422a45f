import { BrowserProvider } from 'ethers'
import { createPublicClient, custom } from 'viem'
import { commands } from 'vitest/browser'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { EdgetraceClient } from '../../src/browser/connectEdgetraceWorker.js'
import { type EdgetraceEip1193Provider, createEip1193Provider } from '../../src/browser/createEip1193Provider.js'
import type { DevnetInfo } from './support.js'
import { startWorker } from './support.js'

// eth_subscribe through the worker: notifications reach the page as EIP-1193 `message` events
// ({ type: 'eth_subscription', data: { subscription, result } }), each header verified in the worker;
// viem's watchBlocks over the provider (custom transport) works unchanged. A devnet of its own, so
// the blocks mined here disturb no other test.
let devnet: DevnetInfo
let client: EdgetraceClient
let provider: EdgetraceEip1193Provider

const anvil = async (method: string, params: unknown[] = []) => {
  const res = await fetch(devnet.anvilUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return ((await res.json()) as { result: any }).result
}

beforeAll(async () => {
  devnet = await commands.startDevnet()
  client = await startWorker({ upstream: devnet.anvilUrl })
  provider = createEip1193Provider(client)
}, 120_000)
afterAll(async () => {
  await provider?.close()
  await commands.stopDevnet(devnet.anvilUrl)
})

it('pushes newHeads as EIP-1193 message events, and ends them with eth_unsubscribe', async () => {
  const messages: { type: string; data: any }[] = []
  provider.on('message', (m) => messages.push(m))
  const id = (await provider.request({ method: 'eth_subscribe', params: ['newHeads'] })) as string
  expect(id).toMatch(/^0x[0-9a-f]{32}$/)
  await anvil('evm_mine')
  const head = await anvil('eth_getBlockByNumber', ['latest', false])
  const until = Date.now() + 10_000
  while (!messages.some((m) => m.type === 'eth_subscription') && Date.now() < until)
    await new Promise((r) => setTimeout(r, 50))
  const note = messages.find((m) => m.type === 'eth_subscription')!
  expect(note.data.subscription).toBe(id)
  expect(note.data.result.hash).toBe(head.hash)
  expect(note.data.result.number).toBe(head.number)
  expect(await provider.request({ method: 'eth_unsubscribe', params: [id] })).toBe(true)
})

it('viem’s watchBlocks over the provider sees the blocks mined', async () => {
  const viem = createPublicClient({ transport: custom(provider), pollingInterval: 100 })
  const seen: bigint[] = []
  const stop = viem.watchBlocks({ onBlock: (b) => seen.push(b.number) })
  try {
    await new Promise((r) => setTimeout(r, 500))
    const start = BigInt(await anvil('eth_blockNumber'))
    await anvil('evm_mine')
    const until = Date.now() + 10_000
    while (!seen.includes(start + 1n) && Date.now() < until) await new Promise((r) => setTimeout(r, 50))
    expect(seen).toContain(start + 1n)
  } finally {
    stop()
  }
})

it('ethers’ BrowserProvider on("block") over the provider sees the blocks mined', async () => {
  const ethers = new BrowserProvider(provider as never)
  ethers.pollingInterval = 100
  const seen: number[] = []
  await ethers.on('block', (n: number) => seen.push(n))
  try {
    await new Promise((r) => setTimeout(r, 500))
    const start = Number(await anvil('eth_blockNumber'))
    await anvil('evm_mine')
    const until = Date.now() + 10_000
    while (!seen.includes(start + 1) && Date.now() < until) await new Promise((r) => setTimeout(r, 50))
    expect(seen).toContain(start + 1)
  } finally {
    await ethers.removeAllListeners()
  }
})
