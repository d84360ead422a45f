// Part of `npm run bench`: edgetrace beside its peers, in one run. A real anvil is the upstream, behind
// a loopback proxy that adds 50 ms to every request (a remote node). Two calls at its head:
//  - swap: a call through five contracts, each looping ~1k steps and reading two slots (≈ 5k steps, 10 slots);
//  - heavy: one contract looping ≈ 335k steps over 82 slots.
// Each traced cold (a fresh instance, nothing cached) and warm (the same call again) by:
//  - edgetrace: debug_traceCall with callTracer at `latest` (the compiled build);
//  - anvil in fork mode (`anvil --fork-url`): debug_traceCall with callTracer at `latest`;
//  - Tevm (@tevm/memory-client forking the same URL): tevmCall with createTrace — struct logs, the
//    only trace Tevm makes (it has no callTracer), so its figures include a heavier tracer.
// Medians of 3 fresh instances. The peers are installed on first use into node_modules/.cache.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { startAnvil } from '../src/node/devnet/startAnvil.js'
import { createProxy } from '../test/src/createProxy.js'
import { DEV_ACCOUNT, deploy, rpcResult } from '../test/src/rpc.js'
import { compiledStartEdgetrace } from './compiledStartEdgetrace.js'

const LATENCY = 50
const RUNS = 3
const PEERS = { '@tevm/memory-client': '2.0.0-next.107', viem: '2.57.20' }
const hex = (n: number, bytes: number) => n.toString(16).padStart(bytes * 2, '0')
const withInit = (code: string) => `0x61${hex(code.length / 2, 2)}80600c6000396000f3${code}`
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/** Loops `iterations` times (7 steps each), reads slots 0 and 1, calls `next` (if any), returns a word. */
function hopRuntime(iterations: number, next?: string): string {
  let code = `61${hex(iterations, 2)}5b600190038060035750` // PUSH2 n; JUMPDEST; n-1; DUP1; JUMPI 3; POP
  code += '60005450600154 50'.replace(' ', '') // SLOAD 0, SLOAD 1
  if (next) code += `6020600060006000600073${next.slice(2)}5af150` // CALL(gas, next, 0, 0, 0, 0, 32) POP
  return `${code}60206000f3`
}
/** n down to 0: SLOAD(n mod 82), 13 steps an iteration (bench/engine.ts's call). */
const HEAVY = `62${hex(25_800, 3)}5b80605290065450600190038060045700`

function peersDir(): string {
  const dir = join(process.cwd(), 'node_modules', '.cache', 'edgetrace-bench-peers')
  if (!existsSync(join(dir, 'node_modules', '@tevm', 'memory-client'))) {
    mkdirSync(dir, { recursive: true })
    // Tevm's latest resolves @ethereumjs/trie 6.2.0 beside @ethereumjs/util 9.1.0, which no longer
    // exports what that trie imports: the trie gets the util it was published with.
    const overrides = { '@ethereumjs/trie@6.2.0': { '@ethereumjs/util': '9.0.3' } }
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, dependencies: PEERS, overrides }, null, 2))
    console.error('installing the peers (Tevm) for the comparison…')
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel', 'error'], { cwd: dir, stdio: 'inherit' })
  }
  return dir
}

type Timing = { cold: number; warm: number }
/** What the bench uses of Tevm's memory client. */
type TevmClient = {
  tevmReady(): Promise<unknown>
  tevmCall(params: { from: string; to: string; data: string; createTrace: boolean }): Promise<{
    trace?: unknown
    errors?: { message: string }[]
  }>
}

async function main() {
  const startEdgetrace = await compiledStartEdgetrace()
  const peers = createRequire(join(peersDir(), 'package.json'))
  const tevm = (await import(pathToFileURL(peers.resolve('@tevm/memory-client')).href)) as {
    createMemoryClient(options: unknown): TevmClient
  }
  const viem = (await import(pathToFileURL(peers.resolve('viem')).href)) as {
    http(url: string): (options: object) => unknown
  }

  const anvil = await startAnvil()
  let next: string | undefined
  for (let i = 0; i < 5; i++) next = await deploy(anvil.url, withInit(hopRuntime(140, next)))
  const swap = next!
  const heavy = await deploy(anvil.url, withInit(HEAVY))
  await rpcResult(anvil.url, 'evm_mine', [])
  const head = Number(await rpcResult(anvil.url, 'eth_blockNumber', []))
  const proxy = await createProxy(anvil.url, { delayMs: LATENCY })
  const calls = {
    swap: { from: DEV_ACCOUNT, to: swap, data: '0x', gas: '0x1c9c380' },
    heavy: { from: DEV_ACCOUNT, to: heavy, data: '0x', gas: '0x1c9c380' },
  }

  const timed = async (fn: () => Promise<unknown>) => {
    const started = performance.now()
    const out = await fn()
    return { ms: performance.now() - started, out }
  }
  type Peer = {
    name: string
    start(): Promise<{ trace(call: (typeof calls)['swap']): Promise<unknown>; stop(): Promise<void> }>
  }
  const peerList: Peer[] = [
    {
      name: 'edgetrace',
      async start() {
        const edge = await startEdgetrace({
          upstream: proxy.url,
          port: 0,
          hardfork: 'prague',
          api: ['eth', 'debug'],
          workers: { threads: 0 },
        })
        return {
          trace: (call) => rpcResult(edge.url, 'debug_traceCall', [call, 'latest', { tracer: 'callTracer' }]),
          stop: () => edge.close(),
        }
      },
    },
    {
      name: 'anvil --fork-url',
      async start() {
        const fork = await startAnvil({ args: ['--fork-url', proxy.url, '--fork-block-number', String(head)] })
        return {
          trace: (call) => rpcResult(fork.url, 'debug_traceCall', [call, 'latest', { tracer: 'callTracer' }]),
          stop: () => fork.stop(),
        }
      },
    },
    {
      name: 'Tevm (memory client, fork)',
      async start() {
        const client = tevm.createMemoryClient({
          fork: { transport: viem.http(proxy.url)({}), blockTag: BigInt(head) },
        })
        await client.tevmReady()
        return {
          trace: async (call) => {
            const result = await client.tevmCall({ from: call.from, to: call.to, data: call.data, createTrace: true })
            if (result.errors?.length) throw new Error(`Tevm: ${result.errors[0].message}`)
            return result.trace
          },
          stop: async () => {},
        }
      },
    },
  ]

  const results = new Map<string, Record<string, Timing>>()
  for (const peer of peerList) {
    const byCall: Record<string, Timing> = {}
    for (const [label, call] of Object.entries(calls)) {
      const cold: number[] = []
      const warm: number[] = []
      for (let run = 0; run < RUNS; run++) {
        const instance = await peer.start()
        try {
          cold.push((await timed(() => instance.trace(call))).ms)
          warm.push((await timed(() => instance.trace(call))).ms)
        } finally {
          await instance.stop()
        }
      }
      byCall[label] = { cold: Math.round(median(cold)), warm: Math.round(median(warm)) }
    }
    results.set(peer.name, byCall)
  }

  const ours = results.get('edgetrace')!
  console.log(
    `\nedgetrace beside its peers — a traced call at the head of an anvil ${LATENCY} ms away (medians of ${RUNS} fresh instances)\n`,
  )
  console.log('| peer | swap cold ms | swap warm ms | heavy cold ms | heavy warm ms |')
  console.log('|---|---:|---:|---:|---:|')
  for (const [name, t] of results) {
    const cell = (label: 'swap' | 'heavy', kind: keyof Timing) =>
      name === 'edgetrace'
        ? `${t[label]![kind]}`
        : `${t[label]![kind]} (${(t[label]![kind] / ours[label]![kind]).toFixed(1)}×)`
    console.log(
      `| ${name} | ${cell('swap', 'cold')} | ${cell('swap', 'warm')} | ${cell('heavy', 'cold')} | ${cell('heavy', 'warm')} |`,
    )
  }
  console.log(
    "\n(×: the peer's time over edgetrace's. edgetrace's warm calls at `latest` include one header request, 50 ms.)",
  )
  await proxy.stop()
  await anvil.stop()
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
