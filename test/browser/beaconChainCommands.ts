import { type Server, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { BrowserCommand } from 'vitest/node'
import { createChainRules } from '../../src/chain/createChainRules.js'
import { parseHeader } from '../../src/chain/parseHeader.js'
import { type AnvilInstance, startAnvil } from '../../src/node/devnet/startAnvil.js'
import {
  type BeaconFixture,
  type BeaconLie,
  createBeaconFixture,
  executionPayloadHeaderOf,
} from '../src/beaconFixture.js'
import { rpcResult } from '../src/rpc.js'

/** Blocks anvil mines: it runs ahead of every head the tests give the beacon chain, so its own latest is never served. */
const MINED = 160
/** The beacon clock's slot when the chain starts: heads up to it can be signed (a signature slot is never in the future). */
const CLOCK_SLOT = 150

type Chain = {
  anvil: AnvilInstance
  fixture: BeaconFixture
  fixtureServer: { close(): Promise<void> }
  front: Server
  /** anvil behind a front that forges blocks when `execution.forge` is on. */
  execution: { server: Server; forge: boolean }
  /** Every path the browser asked the beacon node for, in order. */
  seen: string[]
  /** The beacon node answers nothing while set. */
  beaconNode: { hang: boolean }
}
const chains = new Map<string, Chain>()

/**
 * The beacon node the browser talks to: the fixture's, behind a front that answers any origin (CORS)
 * and records every path asked, so a test can count bootstraps and other round trips; when `hang`,
 * it answers nothing.
 */
async function corsFront(
  target: string,
  seen: string[],
  state: { hang: boolean },
): Promise<{ server: Server; url: string }> {
  const server = createServer(async (req, res) => {
    const cors = { 'access-control-allow-origin': '*' }
    if (req.method === 'OPTIONS')
      return void res
        .writeHead(204, { ...cors, 'access-control-allow-methods': 'GET', 'access-control-allow-headers': '*' })
        .end()
    seen.push(req.url ?? '/')
    if (state.hang) return // never answered (the connection is closed when the chain stops)
    try {
      const answer = await fetch(`${target}${req.url ?? '/'}`)
      const body = Buffer.from(await answer.arrayBuffer())
      res.writeHead(answer.status, { ...cors, 'content-type': 'application/json' }).end(body)
    } catch (err) {
      res.writeHead(502, cors).end(String(err))
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

type Block = Record<string, unknown>

/**
 * anvil as the browser reaches it (CORS), with a switch: every block above the genesis answered with
 * one field changed (its state root) and its hash recomputed — a self-consistent block of the
 * upstream's own making, which its word alone would serve.
 */
async function forgingFront(target: string, chainId: bigint): Promise<Chain['execution'] & { url: string }> {
  const rules = createChainRules({ chainId, hardfork: 'prague' })
  const forge = (block: Block): Block => {
    if (typeof block?.number !== 'string' || BigInt(block.number) === 0n) return block
    const { hash: _claimed, ...fields } = block
    const forged = { ...fields, stateRoot: `0x${'ab'.repeat(32)}` }
    return { ...forged, hash: parseHeader(forged, rules).hash }
  }
  const cors = { 'access-control-allow-origin': '*' }
  const state = { forge: false }
  const server = createServer(async (req, res) => {
    if (req.method === 'OPTIONS')
      return void res
        .writeHead(204, { ...cors, 'access-control-allow-methods': 'POST', 'access-control-allow-headers': '*' })
        .end()
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const text = Buffer.concat(chunks).toString('utf8')
    try {
      const answer = await fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: text,
      })
      let out = await answer.text()
      if (state.forge) {
        const asked = JSON.parse(text) as { id: unknown; method: string } | { id: unknown; method: string }[]
        const methods = new Map((Array.isArray(asked) ? asked : [asked]).map((c) => [JSON.stringify(c.id), c.method]))
        const replies = JSON.parse(out) as { id: unknown; result?: unknown } | { id: unknown; result?: unknown }[]
        const forged = (Array.isArray(replies) ? replies : [replies]).map((r) =>
          /^eth_getBlockBy(Hash|Number)$/.test(methods.get(JSON.stringify(r.id)) ?? '') && r.result
            ? { ...r, result: forge(r.result as Block) }
            : r,
        )
        out = JSON.stringify(Array.isArray(replies) ? forged : forged[0])
      }
      res.writeHead(answer.status, { ...cors, 'content-type': 'application/json' }).end(out)
    } catch (err) {
      res.writeHead(502, cors).end(String(err))
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return Object.assign(state, { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })
}

export type BeaconChainOptions = {
  /** The beacon clock's slot now (default 150): a far one makes every root old. */
  clockSlot?: number
  /** anvil's chain id (default 31337). */
  chainId?: number
}

export type BeaconChainInfo = {
  anvilUrl: string
  /** anvil again, through a front that forges its blocks when told (setBeaconChain's `forgeExecution`). */
  forgingUrl: string
  /** The beacon node (CORS-enabled). */
  beaconUrl: string
  /** anvil's block hashes by number (0…160). */
  hashes: string[]
  /** Beacon block roots by slot (0…160). */
  roots: string[]
}

/**
 * Commands for the consensus browser tests: anvil with 160 blocks, and the fixture beacon chain
 * (test/src/beaconFixture.ts) whose slot s carries anvil's block s, its clock set so that slot 150
 * is now (a browser's light client reads the real clock).
 */
export const beaconChainCommands: Record<string, BrowserCommand<any[]>> = {
  startBeaconChain: async (_ctx, head: number, options: BeaconChainOptions = {}): Promise<BeaconChainInfo> => {
    const anvil = await startAnvil(options.chainId !== undefined ? { chainId: options.chainId } : {})
    await rpcResult(anvil.url, 'anvil_mine', [`0x${MINED.toString(16)}`])
    const real: Record<string, string>[] = await Promise.all(
      Array.from({ length: MINED + 1 }, (_, n) =>
        rpcResult(anvil.url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false]),
      ),
    )
    const fixture = createBeaconFixture({
      genesisTime: Math.floor(Date.now() / 1000) - (options.clockSlot ?? CLOCK_SLOT) * 6,
      executionAt: (slot) => executionPayloadHeaderOf(real[slot]!),
    })
    fixture.head = head
    const fixtureServer = await fixture.serve()
    const seen: string[] = []
    const beaconNode = { hang: false }
    const front = await corsFront(fixtureServer.url, seen, beaconNode)
    const execution = await forgingFront(anvil.url, BigInt(options.chainId ?? 31337))
    chains.set(front.url, { anvil, fixture, fixtureServer, front: front.server, execution, seen, beaconNode })
    return {
      anvilUrl: anvil.url,
      forgingUrl: execution.url,
      beaconUrl: front.url,
      hashes: real.map((b) => b.hash!),
      roots: real.map((_, slot) => `0x${Buffer.from(fixture.rootAt(slot)).toString('hex')}`),
    }
  },
  /**
   * Moves the beacon chain's head slot, sets how it lies (undefined: honestly), and whether the
   * execution upstream at `forgingUrl` forges its blocks, and whether the beacon node answers at all.
   */
  setBeaconChain: async (
    _ctx,
    url: string,
    change: { head?: number; lie?: BeaconLie | null; forgeExecution?: boolean; hang?: boolean },
  ) => {
    const chain = chains.get(url)
    if (!chain) throw new Error(`no beacon chain at ${url}`)
    if (change.head !== undefined) chain.fixture.head = change.head
    if (change.lie !== undefined) chain.fixture.lie = change.lie ?? undefined
    if (change.forgeExecution !== undefined) chain.execution.forge = change.forgeExecution
    if (change.hang !== undefined) chain.beaconNode.hang = change.hang
  },
  /** The paths asked of the beacon node since the last call (the record starts again). */
  takeBeaconRequests: async (_ctx, url: string): Promise<string[]> => {
    const chain = chains.get(url)
    if (!chain) throw new Error(`no beacon chain at ${url}`)
    return chain.seen.splice(0)
  },
  stopBeaconChain: async (_ctx, url: string) => {
    const chain = chains.get(url)
    chains.delete(url)
    if (!chain) return
    for (const server of [chain.front, chain.execution.server]) {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
    await chain.fixtureServer.close()
    await chain.anvil.stop()
  },
}

declare module 'vitest/browser' {
  interface BrowserCommands {
    startBeaconChain(head: number, options?: BeaconChainOptions): Promise<BeaconChainInfo>
    setBeaconChain(
      url: string,
      change: { head?: number; lie?: BeaconLie | null; forgeExecution?: boolean; hang?: boolean },
    ): Promise<void>
    takeBeaconRequests(url: string): Promise<string[]>
    stopBeaconChain(url: string): Promise<void>
  }
}
