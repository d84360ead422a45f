import { readFile } from 'node:fs/promises'
import { createSourceRegistry } from '../sources/createSourceRegistry.js'
import type { SourceContract } from '../sources/types.js'
import { readSourcesDir } from './readSourcesDir.js'
import type { GethGenesis } from '@ethereumjs/common'
import { CLIENT_VERSION } from '../rpc/web3/clientVersion.js'
import { redactUrl } from '../utils/redactUrl.js'
import { checkPortFree } from './checkPortFree.js'
import { devnetExplorerInfo } from './devnetExplorerInfo.js'
import { explorerDir } from './explorerDir.js'
import { CliError, USAGE, defaultApi, isLoopback, parseCliArgs } from './parseCliArgs.js'
import { probeUpstream } from './probeUpstream.js'
import { type ListenerInfo, type RunningEdgetrace, startEdgetrace } from './startEdgetrace.js'
import { startWarnings } from './startWarnings.js'
import type { Devnet } from './devnet/startDevnet.js'
import { installProcessGuard } from './installProcessGuard.js'
import { defaultIpcPath } from './defaultIpcPath.js'
import { DEFAULT_JS_TRACER_MEMORY_MB } from '../exec/createEngine.js'
import type { LightClient } from '../chain/beacon/createLightClient.js'
import { parseBeaconConfigFile } from '../chain/beacon/parseBeaconConfigFile.js'
import type { PinnedStart } from '../chain/beacon/connectPinnedLightClient.js'
import { defaultDataDir } from './createBeaconPinStore.js'

/** `--sources`' contracts, and on the embedded devnet its own contracts first. */
async function sourceRegistry(given: SourceContract[], devnet: boolean) {
  if (!devnet) return createSourceRegistry(given)
  const { devnetSourceRegistry } = await import('./devnet/devnetSources.js')
  return devnetSourceRegistry(given)
}

/** The devnet's part of the banner: its contracts and transactions, and tracing to try at once. */
function devnetBanner(devnet: Devnet, url: string, api: readonly string[]): string[] {
  const nested = devnet.transactions.find((tx) => tx.label.startsWith('nested token calls')) ?? devnet.transactions[0]!
  const curl = (method: string, params: unknown[]) =>
    `    curl -s ${url} -H 'content-type: application/json' -d '${JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })}'`
  const tries: string[] = []
  if (api.includes('debug'))
    tries.push(curl('debug_traceTransaction', [nested.hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }]))
  if (api.includes('trace')) tries.push(curl('trace_transaction', [nested.hash]))
  if (tries.length === 0)
    tries.push(
      `    (tracing is off: --http.api ${api.join(',')} has neither debug nor trace)`,
      curl('eth_getTransactionReceipt', [nested.hash]),
    )
  return [
    '  demo contracts:',
    ...Object.entries(devnet.contracts).map(([name, address]) => `    ${name.padEnd(18)} ${address}`),
    `  dev accounts: ${devnet.accounts.slice(0, 3).join(', ')}, … (unlocked at the upstream)`,
    '  demo transactions (block, status, what it does):',
    ...devnet.transactions.map(
      (tx) =>
        `    ${tx.hash}  ${String(tx.blockNumber).padStart(3)} ${tx.status === 'success' ? '  ok    ' : 'reverted'}  ${tx.label}`,
    ),
    `  trace "${nested.label}":`,
    ...tries,
  ]
}

/** The banner's JavaScript tracer line: served, and where not (a listener beyond loopback). */
function jsTracersLine(server: RunningEdgetrace): string {
  const off = server.listeners.filter((l) => !l.jsTracers && l.api.includes('debug'))
  const offNote = `off on ${off.map((l) => l.url).join(', ')}: beyond loopback (--rpc.jstracers serves them)`
  if (server.engine.options.jsTracers === false) return `  js tracers: ${offNote}`
  if (!server.engine.jsTracerWorkers) return '  js tracers: none: no worker thread to run them on'
  const beyond = server.listeners.some((l) => !l.loopback && l.jsTracers && l.api.includes('debug'))
  return `  js tracers: served, each on a hardened worker thread (SES), ended at its timeout, heap ${server.engine.options.jsTracerMemoryMb ?? DEFAULT_JS_TRACER_MEMORY_MB} MB (--rpc.jstracers.memory)${beyond ? ' (--rpc.jstracers: beyond loopback)' : ''}${off.length > 0 ? `; ${offNote}` : ''}`
}

/** `, namespaces …` for a listener serving other namespaces than `shown` (judged by its own address). */
function namespacesBesides(server: RunningEdgetrace, kind: ListenerInfo['kind'], shown: readonly string[]): string {
  const listener = server.listeners.find((l) => l.kind === kind)
  if (!listener || listener.api.join(',') === shown.join(',')) return ''
  return `, namespaces ${listener.api.join(', ')}`
}

/** Red on a terminal (upstream mode, trust on first use): what a reader must not miss. */
const red = (text: string) => (process.stdout.isTTY ? `\x1b[31m${text}\x1b[0m` : text)

/** The banner's trust lines in consensus mode: what anchors the answers, how well signed, and how the checkpoint came. */
function consensusTrustLine(
  client: LightClient,
  beaconUrl: string,
  start: PinnedStart,
  configFile: string | undefined,
  devnet: boolean,
): string {
  const { finalized, optimistic, participation } = client.status()
  const { network } = start.chain
  const pin = start.pinFile ? ` in ${start.pinFile}` : ''
  const whence = devnet
    ? "the devnet beacon chain's slot 0 root: the chain is made anew each start, its committee keys are the devnet's own (nothing pinned)"
    : start.source === 'first use'
      ? start.pinnedNow
        ? red(
            `WARNING: trusted on first use — the beacon node's own finalized root, which nothing vouched for; pinned${pin} for later starts (check it against a source you trust, or give --checkpoint ROOT)`,
          )
        : `pinned since ${start.pinnedAt}${pin} (trusted on first use: the beacon node's own finalized root, nothing vouched for it)`
      : start.pinnedNow
        ? `given with --checkpoint, pinned${pin}${start.replaced ? `; it replaces the pinned ${start.replaced}` : ''}`
        : `given with --checkpoint, pinned since ${start.pinnedAt}${pin}`
  return [
    `  trust:      consensus — a light client of the beacon node ${beaconUrl}, from the beacon block root ${start.checkpoint}:`,
    `              finalized slot ${finalized.slot} (block ${finalized.blockNumber}), head slot ${optimistic.slot} (block ${optimistic.blockNumber}), ${participation.signed}/${participation.of} of the sync committee signed`,
    `              ${whence}`,
    ...(start.resumedFrom
      ? [
          `              resumed from the finalized root ${start.resumedFrom.root} (slot ${start.resumedFrom.slot}) verified last time`,
        ]
      : []),
    `              beacon chain: ${network ? `${network.name} (edgetrace's own config)` : `genesis validators root ${start.chain.genesisValidatorsRoot}, config from ${configFile ? `--beacon.config ${configFile}` : "the beacon node's /eth/v1/config/spec"}`}`,
  ].join('\n')
}

async function main(argv: string[]): Promise<void> {
  installProcessGuard((line) => console.error(line))
  const opts = parseCliArgs(argv)
  if (opts.help) {
    process.stdout.write(USAGE)
    return
  }
  // Said first, before a devnet or anything else starts: a port that is taken.
  await checkPortFree(opts.host, opts.port)
  // The IPC socket's default directory is checked before anything starts too (this user's own, 0700).
  const socketUrl = opts.socketUrl ?? (opts.socketEnabled ? `unix://${defaultIpcPath()}` : undefined)
  const cleanups: (() => Promise<void>)[] = []
  let upstreamUrl = opts.upstream
  let upstreamNote = ''
  let hardfork = opts.hardfork
  let devnet: Devnet | undefined
  if (upstreamUrl === undefined) {
    const { startDevnet } = await import('./devnet/startDevnet.js')
    console.log(
      `no --upstream given: starting the embedded local devnet (anvil${opts.devnetBeacon ? ' and a beacon chain following it' : ''}) …`,
    )
    devnet = await startDevnet({ beacon: opts.devnetBeacon === true })
    if (devnet.beacon) {
      // Its light client starts from the beacon chain's first block (the one carrying anvil's genesis).
      opts.beaconUpstream = devnet.beacon.url
      opts.checkpoint = devnet.beacon.checkpoint
      opts.trust = 'consensus'
    }
    cleanups.push(() => (devnet as Devnet).stop())
    upstreamUrl = devnet.anvil.url
    hardfork ??= devnet.anvil.hardfork
    upstreamNote = ` (embedded devnet: anvil, ${Object.keys(devnet.contracts).length} demo contracts, ${devnet.transactions.length} demo transactions)`
  } else {
    await probeUpstream(upstreamUrl)
  }
  // The HTTP listener's namespaces; every other listener's are judged by its own address (startEdgetrace).
  const api = opts.api ?? defaultApi(isLoopback(opts.host), devnet !== undefined)
  const explorerWanted = opts.explorer ?? isLoopback(opts.host)
  const explorer = explorerWanted ? explorerDir() : undefined
  let genesis: GethGenesis | undefined
  if (opts.chain !== undefined) {
    try {
      genesis = JSON.parse(await readFile(opts.chain, 'utf8')) as GethGenesis
    } catch (err) {
      throw new CliError(`--chain ${opts.chain}: ${err instanceof Error ? err.message : String(err)}`)
    }
  }
  let beaconConfigKeys: Record<string, string> | undefined
  if (opts.beaconConfig !== undefined) {
    try {
      beaconConfigKeys = parseBeaconConfigFile(await readFile(opts.beaconConfig, 'utf8'), opts.beaconConfig)
    } catch (err) {
      throw new CliError(`--beacon.config ${opts.beaconConfig}: ${err instanceof Error ? err.message : String(err)}`)
    }
  }
  let https: { host?: string | undefined; port: number; key: Buffer; cert: Buffer } | undefined
  if (opts.https) {
    const read = async (flag: string, file: string) => {
      try {
        return await readFile(file)
      } catch (err) {
        throw new CliError(`${flag} ${file}: ${err instanceof Error ? err.message : String(err)}`)
      }
    }
    https = {
      host: opts.https.host,
      port: opts.https.port,
      cert: await read('--https.cert', opts.https.certFile as string),
      key: await read('--https.key', opts.https.keyFile as string),
    }
  }
  const server = await startEdgetrace({
    upstream: upstreamUrl as string,
    ws: { port: opts.wsPort, api: opts.wsApi },
    https,
    socketUrl,
    graphql: opts.graphql,
    metrics: opts.metrics,
    host: opts.host,
    port: opts.port,
    api: opts.api,
    defaultApi: (loopback) => defaultApi(loopback, devnet !== undefined),
    explorerDir: explorer,
    explorerInfo: devnetExplorerInfo(devnet, hardfork),
    ...(devnet ? { explorerSources: (await import('./devnet/devnetSources.js')).devnetSourcesText() } : {}),
    corsDomains: opts.corsDomains,
    wsOrigins: opts.wsOrigins,
    vhosts: opts.vhosts,
    batchLimit: opts.batchLimit,
    maxResponseBytes: opts.responseLimit,
    genesis,
    hardfork,
    engine: {
      gasCap: opts.gasCap,
      ...(opts.estimateGasErrorRatio > 0 ? { estimateGasErrorRatio: opts.estimateGasErrorRatio } : {}),
      evmTimeoutMs: opts.evmTimeoutMs,
      returnDataLimit: opts.returnDataLimit,
      unverified: opts.unverified,
      ...(opts.engine === 'wasm' ? { engine: 'wasm' as const } : {}),
      traceCompat: opts.traceCompat,
      overlayGetLogsTimeoutMs: opts.overlayGetLogsTimeoutMs,
      overlayReplayBlockTimeoutMs: opts.overlayReplayBlockTimeoutMs,
      otsSearchMaxBlocks: opts.otsSearchMaxBlocks,
      borSnapshotWalk: opts.borSnapshotWalk,
      ...(opts.jsTracers ? { jsTracers: true } : {}),
      ...(opts.jsTracerMemoryMb !== undefined ? { jsTracerMemoryMb: opts.jsTracerMemoryMb } : {}),
      otsSearchIndex: !opts.otsSearchScan,
      txpool: opts.txpool,
      subscriptionPollMs: opts.subscriptionPollMs,
      ...(opts.sourcify ? { sourcify: opts.sourcify } : {}),
      // The devnet's own contracts come with their sources (src/node/devnet/sources.json).
      ...(opts.sources.length > 0 || devnet
        ? {
            sources: await sourceRegistry(
              opts.sources.flatMap((path) => readSourcesDir(path)),
              devnet !== undefined,
            ),
          }
        : {}),
    },
    ...(opts.trust === 'consensus'
      ? {
          beacon: {
            url: opts.beaconUpstream!,
            checkpoint: opts.checkpoint,
            network: opts.network,
            configKeys: beaconConfigKeys,
            // The devnet's beacon chain is made anew each start: nothing of it is pinned.
            datadir: devnet ? undefined : (opts.datadir ?? defaultDataDir()),
            force: opts.checkpointForce,
          },
        }
      : { checkpoint: opts.checkpoint }),
    ...(opts.workers !== undefined ? { workers: { threads: opts.workers } } : {}),
    ...(opts.cacheRedis !== undefined ? { cacheRedis: opts.cacheRedis } : {}),
    ...(opts.queueRedis !== undefined
      ? { queue: { redis: opts.queueRedis, work: opts.queueWork, lockMs: opts.queueLockMs } }
      : {}),
    log: (line) => console.error(line),
  }).catch(async (err: unknown) => {
    for (const c of cleanups) await c()
    throw err
  })
  cleanups.unshift(() => server.close())
  const checkpoint = await server.engine.headers.checkpoint().catch(() => undefined)

  const lines = [
    CLIENT_VERSION,
    `  upstream:   ${redactUrl(upstreamUrl as string)}${upstreamNote}`,
    `  chain:      ${server.engine.rules.source}`,
    opts.unverified
      ? '  state:      UNVERIFIED (--unverified): accounts, storage and code are taken from the upstream without proofs'
      : '  state:      verified (Merkle proofs against block headers, code against code hashes)',
    ...(opts.engine === 'wasm'
      ? ['  engine:     wasm (frames in WebAssembly, calls, logs, storage writes and step traces in @ethereumjs/evm)']
      : []),
    server.lightClient && server.beaconTrust
      ? consensusTrustLine(
          server.lightClient,
          redactUrl(opts.beaconUpstream!),
          server.beaconTrust,
          opts.beaconConfig,
          devnet !== undefined,
        )
      : opts.trust === 'checkpoint'
        ? `  trust:      checkpoint — blocks asked by number or tag must link by parent hashes to the checkpoint ${opts.checkpoint}${checkpoint ? ` (block ${checkpoint.number})` : ''}`
        : red(
            `  trust:      upstream — blocks asked by number or tag are the upstream's word (${devnet ? 'the embedded devnet' : 'no --beacon.upstream or --checkpoint given'})`,
          ),
    `  namespaces: ${api.join(', ')}${opts.api ? '' : ' (the default here; --http.api to choose)'}`,
    ...(api.includes('trace')
      ? [
          opts.traceCompat
            ? "  traces:     trace_* in OpenEthereum's shapes (--trace.compat)"
            : "  traces:     trace_* in the reference daemon's (Erigon's) shapes",
        ]
      : []),
    opts.cacheRedis
      ? `  cache:      memory, then shared on ${redactUrl(opts.cacheRedis)} (--cache.redis; every entry read is checked)`
      : '  cache:      memory only (--cache.redis URL: shared with other edgetrace processes)',
    ...(opts.queueRedis
      ? [
          `  queue:      long ranges in stretches on ${redactUrl(opts.queueRedis)} (--queue.redis)${opts.queueWork ? '; this process takes them too (--queue.work)' : ''}`,
        ]
      : []),
    server.engine.rangeWorkers
      ? `  workers:    ${server.engine.rangeWorkers.size} threads for long ranges and concurrent block traces, started on first use (--workers)`
      : '  workers:    none: ranges and block traces run on the main thread (--workers)',
    ...(server.listeners.some((l) => l.api.includes('debug')) ? [jsTracersLine(server)] : []),
    ...(opts.sources.length > 0 || devnet
      ? [
          `  sources:    ${server.engine.options.sources?.size ?? 0} contracts from ${[...(devnet ? ["the devnet's build (src/node/devnet/sources.json)"] : []), ...opts.sources].join(', ')}${opts.sources.length > 0 ? ' (--sources)' : ''}, matched by runtime code for debug_trace* with tracer edgetrace_sourceTracer and the explorer's source view`,
        ]
      : []),
    ...(opts.sourcify
      ? [
          `  sourcify:   ${opts.sourcify} asked for code no build output matches (edgetrace_sourceTracer); answers matched to the verified code, kept by code hash`,
        ]
      : []),
    `  listening:  ${server.url}  (WebSocket: ${server.wsUrl}${opts.wsApi ? `, namespaces ${opts.wsApi.join(', ')}` : ''})`,
    ...(server.httpsUrl
      ? [
          `  https:      ${server.httpsUrl}  (HTTP/2 and HTTP/1.1; WebSocket: ${server.httpsUrl.replace(/^https/, 'wss')})${namespacesBesides(server, 'https', api)}`,
        ]
      : []),
    ...(opts.graphql
      ? [`  graphql:    ${server.url}/graphql${server.httpsUrl ? ` and ${server.httpsUrl}/graphql` : ''}`]
      : []),
    ...(server.socketUrl
      ? [
          `  socket:     ${server.socketUrl}  (JSON-RPC, subscriptions included)${namespacesBesides(server, 'socket', opts.wsApi ?? api)}`,
        ]
      : []),
    ...(devnet ? devnetBanner(devnet, server.url, api) : []),
    explorer
      ? `\nopen ${server.url}/ — the trace explorer`
      : explorerWanted
        ? `\nJSON-RPC at ${server.url} (the explorer page is not built: run \`npm run build\`, which npm install runs)`
        : `\nJSON-RPC at ${server.url} (the explorer page is off${opts.explorer === false ? '' : ' away from loopback: --http.explorer on'})`,
  ]
  // Stopping is armed before anything is printed: writes to a pipe are synchronous, so a supervisor
  // that signals as soon as it reads the banner would otherwise meet the default action (killed).
  const stop = async () => {
    for (const c of cleanups) await c().catch(() => {})
    process.exit(0)
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  console.log(lines.join('\n'))
  for (const warning of server.engine.rules.warnings) console.warn(warning)
  // Each address beyond loopback is warned about once, with what its listeners serve there.
  const beyond = new Map<string, Set<string>>()
  for (const l of server.listeners)
    if (!l.loopback) beyond.set(l.address, new Set([...(beyond.get(l.address) ?? []), ...l.api]))
  for (const [address, served] of beyond)
    for (const warning of startWarnings(address, [...served])) console.warn(warning)
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(`edgetrace: ${err instanceof Error ? err.message : String(err)}`)
  process.exit(1)
})
