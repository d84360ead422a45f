import { DEFAULT_ENGINE } from '../wasm/wasmEngineState.js'
import type { EngineKind } from '../wasm/wasmEngineState.js'
import { BaseError } from '../errors/base.js'
import { parseSocketUrl } from './createSocketServer.js'
import { NAMESPACES } from '../rpc/namespaces.js'
import { NAMESPACE_ALIASES } from '../rpc/servedPrefixes.js'
import type { Hex } from '../types/hex.js'
import { DEFAULT_TXPOOL_LIMITS, type TxPoolLimits } from '../exec/txpool/createTxPool.js'
import { KNOWN_NETWORK_NAMES, type KnownNetworkName } from '../chain/beacon/knownNetworks.js'
import { EXECUTABLE_HARDFORKS, unexecutableHardfork } from '../chain/executableHardforks.js'

/** `--trust`: what decides which block is real. */
export type TrustMode = 'consensus' | 'checkpoint' | 'upstream'
const TRUST_MODES: readonly TrustMode[] = ['consensus', 'checkpoint', 'upstream']

export type CliOptions = {
  upstream?: string | undefined
  /** `--devnet.beacon`: the embedded devnet with a beacon chain following anvil (trust mode consensus). */
  devnetBeacon?: boolean | undefined
  /** `--beacon.upstream`: a Beacon API whose light-client endpoints anchor which block is real. */
  beaconUpstream?: string | undefined
  /**
   * `--trust`, or its default: consensus with `--beacon.upstream`, checkpoint with `--checkpoint`
   * alone, upstream otherwise.
   */
  trust: TrustMode
  /** `--network`: the known beacon chain (else the execution chain id's). */
  network?: KnownNetworkName | undefined
  /** `--beacon.config FILE`: a consensus specs config.yaml for a beacon chain edgetrace does not know. */
  beaconConfig?: string | undefined
  /** `--datadir`: where pinned checkpoints are kept (else $XDG_DATA_HOME/edgetrace or ~/.local/share/edgetrace). */
  datadir?: string | undefined
  /** `--cache.redis URL`: the shared verified cache tier on Redis or Valkey (redis:// or rediss://). */
  cacheRedis?: string | undefined
  /** `--queue.redis URL`: long ranges' stretches go on the shared work queue there (BullMQ). */
  queueRedis?: string | undefined
  /** `--queue.work`: take stretches from the queue, on this process's worker threads. */
  queueWork: boolean
  /** `--queue.lock`: how long a dead worker holds a stretch before another runs it, ms. */
  queueLockMs?: number | undefined
  /** `--checkpoint.force`: take a checkpoint older than the weak-subjectivity bound. */
  checkpointForce: boolean
  host: string
  port: number
  /** `--http.api` as given; without it, `defaultApi` decides. */
  api?: string[] | undefined
  /** `--http.explorer`: the trace explorer page on GET /; without it, on when listening on loopback. */
  explorer?: boolean | undefined
  /** `--rpc.jstracers`: serve JavaScript tracers beyond loopback too. */
  jsTracers?: boolean | undefined
  /** `--rpc.jstracers.memory`: the heap of a JavaScript tracer's thread, MB. */
  jsTracerMemoryMb?: number | undefined
  corsDomains: string[]
  wsOrigins: string[]
  /** `--ws.port`: WebSocket on a listener of its own (else on the HTTP port). */
  wsPort?: number | undefined
  /** `--ws.api`: the namespaces WebSocket, IPC and TCP clients get (else `--http.api`'s). */
  wsApi?: string[] | undefined
  /** `--https.*`: an HTTPS listener (HTTP/2, HTTP/1.1, WebSocket over TLS). */
  https?:
    | { host?: string | undefined; port: number; certFile?: string | undefined; keyFile?: string | undefined }
    | undefined
  /** `--socket.url`: an IPC or raw TCP listener. */
  socketUrl?: string | undefined
  /** `--socket.enabled`: an IPC listener, at `--socket.url` or else in this user's own directory (defaultIpcPath). */
  socketEnabled: boolean
  /** `--graphql`: GraphQL (the execution-apis schema) on /graphql. */
  graphql: boolean
  /** `--metrics`: GET /metrics and the full GET /health on every listener, not only on loopback. */
  metrics: boolean
  /** `--subscription.interval`: how often subscriptions read the head of an upstream that cannot announce it. */
  subscriptionPollMs: number
  /** `--workers`: worker threads for long ranges (undefined: one per core). */
  workers: number | undefined
  vhosts: string[]
  gasCap: bigint
  /** `--sources PATH` (repeatable): build outputs for the source-level tracer. */
  sources: string[]
  /** `--sourcify URL`: a Sourcify server the source tracer asks for code no --sources matched (off when undefined). */
  sourcify: string | undefined
  /** `--rpc.gasestimate.errorratio`: eth_estimateGas's tolerance (0: exact). */
  estimateGasErrorRatio: number
  evmTimeoutMs: number
  batchLimit: number
  /** `--rpc.response.limit`: most bytes of one message's answer (0: no limit). */
  responseLimit: number
  returnDataLimit: number
  otsSearchMaxBlocks: number
  borSnapshotWalk: number
  otsSearchScan: boolean
  /** `--txpool.*`: the local pool's limits. */
  txpool: TxPoolLimits
  chain?: string | undefined
  hardfork?: string | undefined
  unverified: boolean
  /** `--engine`: what runs the EVM's frames. */
  engine: EngineKind
  traceCompat: boolean
  checkpoint?: Hex | undefined
  overlayGetLogsTimeoutMs: number
  overlayReplayBlockTimeoutMs: number
  help: boolean
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/

/** Whether a listen address is loopback (only this machine can reach it). */
export const isLoopback = (host: string): boolean => LOOPBACK.test(host)

/** What a server open to others serves without `--http.api`: the reference daemon's default. */
export const PUBLIC_API = ['eth', 'vendor'] as const
/** What a server only this machine reaches (or the embedded devnet) serves without `--http.api`: tracing too. */
export const LOCAL_API = ['eth', 'vendor', 'debug', 'trace', 'txpool', 'web3', 'net'] as const

/**
 * The namespaces a listener serves when `--http.api` (`--ws.api`) does not name them, by its own
 * address: whether it is loopback (an IPC socket is), or the embedded devnet's.
 */
export function defaultApi(loopback: boolean, devnet: boolean): readonly string[] {
  return devnet || loopback ? LOCAL_API : PUBLIC_API
}

const aliasesOf = (name: string) =>
  Object.entries(NAMESPACE_ALIASES)
    .filter(([, to]) => to === name)
    .map(([alias]) => alias)

/** One line per namespace for --help, from the namespace registry. */
const NAMESPACE_LINES = NAMESPACES.map((ns) => {
  const aliases = aliasesOf(ns.name)
  const label = `${ns.name}${aliases.length > 0 ? ` (${aliases.join(', ')})` : ''}`
  return `    ${label.padEnd(18)}${ns.summary}`
}).join('\n')

/** Every name `--http.api` accepts, for its error message. */
const KNOWN_API = NAMESPACES.flatMap((ns) => [ns.name, ...aliasesOf(ns.name)])

export const USAGE = `edgetrace — a client-side Ethereum JSON-RPC daemon: trace and debug on verified state from any node

Usage: edgetrace [--upstream URL] [flags]

  --upstream URL          the node to read state from (http(s):// or ws(s)://). Without it, an embedded
                          local devnet (anvil, seeded with demo contracts) is started.
  --devnet.beacon         the embedded devnet with a beacon chain following anvil: trust mode consensus
  --http.addr ADDR        listen address (default 127.0.0.1; loopback unless told otherwise)
  --http.port PORT        listen port (default 8545; 0 picks a free one)
  --http.api LIST         namespaces served, comma-separated. Default: ${LOCAL_API.join(',')} on a loopback
                          address or the embedded devnet; ${PUBLIC_API.join(',')} (the reference daemon's) elsewhere.
                          The namespaces:
${NAMESPACE_LINES}
  --http.explorer on|off  the trace explorer page on GET / (default: on when listening on loopback)
  --http.corsdomain LIST  origins allowed to call from a browser, comma-separated ('*' for any)
  --http.vhosts LIST      hostnames accepted in the Host header, comma-separated (default localhost;
                          '*' for any; IP addresses always), against DNS rebinding
  --ws                    WebSocket on the HTTP port (on by default, as with the reference daemon's --ws)
  --ws.port PORT          WebSocket on a listener of its own instead (geth's 8546, say)
  --ws.api LIST           namespaces WebSocket, IPC and TCP clients get (default: --http.api's)
  --ws.origins LIST       browser origins allowed to open a WebSocket, comma-separated ('*' for any);
                          the server's own origin and --http.corsdomain's are always allowed
  --subscription.interval DUR  how often eth_subscribe reads the head when the upstream cannot
                          announce new heads (an HTTP upstream; default 1s)
  --workers N             worker threads long ranges fan out to (trace_filter, debug_getModifiedAccounts*,
                          the ots searches' block scans, the signers of Bor snapshot walks, over 64
                          blocks or more) and concurrent whole-block traces spread to (default one
                          per core, 0: all on the main thread); they start on the first such call
                          and stop after a minute idle
  --metrics               GET /metrics (Prometheus text) and the full GET /health (ready: 200, or 503
                          saying why) on every listener; without it only on loopback ones (others
                          answer /health with a plain ok)
  --graphql               GraphQL on /graphql (POST, or GET with ?query= for queries): the
                          execution-apis schema, every field from the same verified sources as the
                          JSON-RPC methods
  --https.enabled         an HTTPS listener too: HTTP/2 and HTTP/1.1 on one port, WebSocket over TLS
  --https.addr ADDR       its address (default --http.addr's)
  --https.port PORT       its port (default 8443)
  --https.cert FILE       its certificate (PEM)
  --https.key FILE        its private key (PEM)
  --socket.enabled        a socket listener too, newline-separated JSON-RPC with subscriptions
  --socket.url URL        unix:///path/edgetrace.ipc (IPC, owner-only; default $XDG_RUNTIME_DIR/edgetrace.ipc,
                          else <temp dir>/edgetrace-<uid>/edgetrace.ipc in a 0700 directory of this user's)
                          or tcp://host:port (a raw TCP socket)
  --sources PATH          a build output for edgetrace_sourceTracer (repeatable): a Foundry out/, a Hardhat
                          artifacts/ (its build-info), a project holding either, or a solc standard-JSON
                          output file; contracts are matched to the code that runs by runtime bytecode
  --sourcify URL          off by default: edgetrace_sourceTracer asks this Sourcify server's APIv2
                          (https://sourcify.dev/server) for code no --sources matched; its answer is
                          matched to the verified code by runtime bytecode (a mismatch is refused) and
                          kept by code hash in the cache (and --cache.redis), so later traces need no server
  --rpc.gascap N          most gas one call may use (default 50000000; 0 = no cap)
  --rpc.gasestimate.errorratio R  eth_estimateGas may answer up to this fraction above the least gas
                          that runs, for fewer runs (geth's 0.015); default 0: the exact least, as the
                          reference daemon (Erigon's rpcdaemon) answers
  --rpc.evmtimeout DUR    most time one request may take, its execution and its upstream calls
                          (default 5m; e.g. 30s, 1m30s)
  --rpc.batch.limit N     largest JSON-RPC batch (default 100)
  --rpc.response.limit N  most bytes of one answer, a batch's together, on every transport (default 0 =
                          no limit: answers stream with backpressure); past it geth's -32003 error
  --rpc.returndata.limit N  most bytes eth_call may return (default 100000; 0 = no limit)
  --rpc.overlay.getlogstimeout DUR      most time one overlay_getLogs may take (default 5m)
  --rpc.overlay.replayblocktimeout DUR  most time overlay_getLogs may replay one block (default 10s)
  --bor.snapshotwalk N    Bor chains: most headers a validator snapshot walks back to a known one (a cached
                          snapshot, the genesis) before it starts from a span's sprint-end header (16384)
  --rpc.jstracers         serve JavaScript tracers (tracer code in debug_trace*) on a server listening beyond
                          loopback too; on loopback they are always served (each runs on a hardened worker thread)
  --rpc.jstracers.memory MB  the heap one JavaScript tracer's thread may use (default 512); a tracer past it
                          ends with an error and its thread is replaced
  --ots.search.maxblocks N  most blocks one ots_searchTransactions* request may replay to find the
                          address (default 10000)
  --ots.search.scan       ots searches never ask the upstream's own index (ots_search*, trace_filter):
                          they replay every verified block instead (bounded by --ots.search.maxblocks)
  --txpool.globalslots N  most transactions in the pending sub-pool (default ${DEFAULT_TXPOOL_LIMITS.pendingSlots})
  --txpool.globalbasefeeslots N  most in the baseFee sub-pool (default ${DEFAULT_TXPOOL_LIMITS.baseFeeSlots})
  --txpool.globalqueue N  most in the queued sub-pool (default ${DEFAULT_TXPOOL_LIMITS.queuedSlots})
  --txpool.accountslots N most transactions of one sender from the upstream's pool (default ${DEFAULT_TXPOOL_LIMITS.accountSlots})
  --txpool.pricebump N    percent more tip and fee cap a replacement must pay (default ${DEFAULT_TXPOOL_LIMITS.priceBump})
  --chain FILE            geth-style genesis file naming the chain's forks (for unknown chain ids)
  --hardfork NAME         one hardfork for every block (devnets), e.g. prague; one of
${`${EXECUTABLE_HARDFORKS.join(', ')}`.replace(/(.{1,74})(?:, |$)/g, '                          $1,\n').slice(0, -2)}
  --unverified            read state without Merkle proofs (for upstreams without eth_getProof)
  --engine NAME           what runs the EVM: wasm (default: a WebAssembly interpreter runs each
                          frame's plain instructions, @ethereumjs/evm the rest; traces observed
                          step by step too, instruction by instruction) or ethereumjs (alone)
  --queue.redis URL       long ranges (trace_filter, debug_getModifiedAccounts*, the ots searches'
                          block scans, the signers of Bor snapshot walks) go in stretches on a work
                          queue there (BullMQ), for every process started with --queue.work to
                          take, and so do a batch's block traces while one runs here; results come
                          back here, in order (their answers are not proven again here: a Redis of
                          the fleet's own)
  --queue.work            take stretches from --queue.redis's queue, on this process's worker threads
  --queue.lock DURATION   how long a worker that died holds a stretch before another runs it (default 30s)
  --cache.redis URL       a verified cache shared with other edgetrace processes on Redis or Valkey
                          (redis:// or rediss://): headers, code, proofs' trie nodes, receipts, raw
                          blocks and prefetch hints, each checked as the upstream's answer would be
                          when read; with the store down or slow, the upstream answers
  --trace.compat          trace_* in OpenEthereum's shapes (its error labels, no result on a failed
                          frame, vmTrace without op/idx) instead of the reference daemon's
  --help                  this text

Trust: what decides which block is real (every value is proven against a block's header; this says
whether that block is the real chain's)
  --trust MODE            consensus, checkpoint or upstream. Default: consensus with --beacon.upstream,
                          checkpoint with --checkpoint alone, upstream otherwise (and on the devnet)
    consensus             a light client of the beacon chain: tags are the blocks the sync committee
                          signed (latest the optimistic head, safe/finalized the finalized one), numbers
                          their ancestors by hash links. Proves canonicity as far as 2/3 of the
                          committee's signatures do; not that the beacon node is live or complete
    checkpoint            blocks asked by number or tag must link by parent hashes to --checkpoint
                          HASH. Proves descent from it, not canonicity: a block made up on top of
                          the real chain links as well
    upstream              which block is number N (or latest) is the upstream's word: for devnets and
                          chains without a beacon chain. Proves state against the upstream's headers only
  --beacon.upstream URL   a beacon node (any Beacon API) the light client follows (trust mode consensus)
  --checkpoint ROOT|HASH  consensus: a beacon block root you trust, where the light client starts.
                          Without it the root pinned earlier, or on first use the beacon node's
                          finalized root (trusted on first use, pinned, said in the banner).
                          checkpoint: a block hash you trust (a finalized block's, from a source you trust)
  --checkpoint.force      take a checkpoint older than the weak-subjectivity bound (14 days)
  --network NAME          ${KNOWN_NETWORK_NAMES.join(', ')}: the beacon chain's config is edgetrace's own (its
                          forks, genesis); default: the execution chain id's. A beacon node of another
                          chain is refused
  --beacon.config FILE    another beacon chain's config (the consensus specs' config.yaml); default:
                          the beacon node's /eth/v1/config/spec
  --datadir DIR           where pinned checkpoints are kept, one file per beacon chain (default
                          $XDG_DATA_HOME/edgetrace, else ~/.local/share/edgetrace)
`

/** A flag's Redis (or Valkey) URL: `redis://` or `rediss://`, else refused naming the flag. */
function redisUrl(flag: string, url: string): string {
  if (!/^rediss?:\/\/[^\s]+$/i.test(url))
    throw new CliError(`${flag} needs a redis:// or rediss:// URL, got ${JSON.stringify(url.slice(0, 100))}`)
  return url
}

/** A bad command line: cli.ts prints the message and the usage, and exits. */
export class CliError extends BaseError {
  override name = 'CliError'
}

/** Go-style durations: 300ms, 5s, 5m, 1m30s, 1h. */
export function parseDuration(text: string): number {
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy
  let total = 0
  let matched = ''
  for (let m = re.exec(text); m; m = re.exec(text)) {
    matched += m[0]
    total += Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 'ms' | 's' | 'm' | 'h']
  }
  if (matched !== text || text === '') throw new CliError(`invalid duration "${text}" (examples: 30s, 5m, 1m30s)`)
  return total
}

function integer(flag: string, value: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new CliError(`${flag} expects a whole number from ${min} to ${max}, got "${value}"`)
  }
  return Number(value)
}

const list = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)

/** A namespace list (`--http.api`, `--ws.api`): every name known, at least one. */
function apiList(flag: string, value: string): string[] {
  const api = list(value)
  const unknown = api.filter((name) => !KNOWN_API.includes(name))
  if (unknown.length > 0)
    throw new CliError(
      `${flag}: unknown namespace${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')} (known: ${KNOWN_API.join(', ')})`,
    )
  if (api.length === 0) throw new CliError(`${flag} needs at least one namespace (known: ${KNOWN_API.join(', ')})`)
  return api
}

/** Parses the reference daemon's flag names (`--flag value` or `--flag=value`). */
export function parseCliArgs(argv: readonly string[]): CliOptions {
  const opts: CliOptions = {
    host: '127.0.0.1',
    port: 8545,
    corsDomains: [],
    wsOrigins: [],
    subscriptionPollMs: 1000,
    workers: undefined,
    graphql: false,
    metrics: false,
    queueWork: false,
    socketEnabled: false,
    vhosts: ['localhost'],
    gasCap: 50_000_000n,
    sources: [],
    sourcify: undefined,
    estimateGasErrorRatio: 0,
    evmTimeoutMs: 5 * 60_000,
    batchLimit: 100,
    responseLimit: 0,
    returnDataLimit: 100_000,
    otsSearchMaxBlocks: 10_000,
    borSnapshotWalk: 16_384,
    otsSearchScan: false,
    txpool: { ...DEFAULT_TXPOOL_LIMITS },
    unverified: false,
    engine: DEFAULT_ENGINE,
    traceCompat: false,
    overlayGetLogsTimeoutMs: 5 * 60_000,
    overlayReplayBlockTimeoutMs: 10_000,
    trust: 'upstream',
    checkpointForce: false,
    help: false,
  }
  let trust: TrustMode | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (!arg.startsWith('--')) throw new CliError(`unexpected argument "${arg}"`)
    const eq = arg.indexOf('=')
    const flag = eq > 0 ? arg.slice(0, eq) : arg
    const takeValue = () => {
      if (eq > 0) return arg.slice(eq + 1)
      const value = argv[++i]
      if (value === undefined) throw new CliError(`${flag} needs a value`)
      return value
    }
    switch (flag) {
      case '--help':
      case '-h':
        opts.help = true
        break
      case '--devnet.beacon':
        opts.devnetBeacon = true
        break
      case '--upstream':
        opts.upstream = takeValue()
        if (!/^(https?|wss?):\/\//.test(opts.upstream))
          throw new CliError('--upstream must be an http(s):// or ws(s):// URL')
        break
      case '--http.addr':
        opts.host = takeValue()
        break
      case '--http.port':
        opts.port = integer(flag, takeValue(), 0, 65535)
        break
      case '--http.api':
        opts.api = apiList(flag, takeValue())
        break
      case '--rpc.jstracers':
        opts.jsTracers = true
        break
      case '--rpc.jstracers.memory':
        opts.jsTracerMemoryMb = integer(flag, takeValue(), 64, 65536)
        break
      case '--http.explorer': {
        const value = takeValue()
        if (!/^(on|off|true|false)$/.test(value))
          throw new CliError(`--http.explorer expects on or off, got "${value}"`)
        opts.explorer = value === 'on' || value === 'true'
        break
      }
      case '--http.corsdomain':
        opts.corsDomains = list(takeValue())
        break
      case '--http.vhosts':
        opts.vhosts = list(takeValue())
        break
      case '--ws.origins':
        opts.wsOrigins = list(takeValue())
        break
      case '--graphql':
        opts.graphql = true
        break
      case '--metrics':
        opts.metrics = true
        break
      case '--ws':
        if (eq > 0 && !/^(true|on)$/.test(arg.slice(eq + 1)))
          throw new CliError('--ws: WebSocket is always served (on the HTTP port, or on --ws.port)')
        break
      case '--ws.port':
        opts.wsPort = integer(flag, takeValue(), 0, 65535)
        break
      case '--ws.api':
        opts.wsApi = apiList(flag, takeValue())
        break
      case '--subscription.interval':
        opts.subscriptionPollMs = parseDuration(takeValue())
        if (opts.subscriptionPollMs < 10) throw new CliError('--subscription.interval must be at least 10ms')
        break
      case '--https.enabled':
        opts.https = { port: 8443, ...opts.https }
        break
      case '--https.addr':
        opts.https = { port: 8443, ...opts.https, host: takeValue() }
        break
      case '--https.port':
        opts.https = { ...opts.https, port: integer(flag, takeValue(), 0, 65535) }
        break
      case '--https.cert':
        opts.https = { port: 8443, ...opts.https, certFile: takeValue() }
        break
      case '--https.key':
        opts.https = { port: 8443, ...opts.https, keyFile: takeValue() }
        break
      case '--socket.enabled':
        opts.socketEnabled = true
        break
      case '--socket.url':
        opts.socketUrl = takeValue()
        try {
          parseSocketUrl(opts.socketUrl)
        } catch (err) {
          throw new CliError((err as Error).message)
        }
        break
      case '--sources':
        opts.sources.push(takeValue())
        break
      case '--sourcify': {
        const url = takeValue()
        if (!/^https?:\/\/[^/]/.test(url)) throw new CliError(`--sourcify: not an http(s) URL: ${url}`)
        opts.sourcify = url
        break
      }
      case '--rpc.gascap':
        opts.gasCap = BigInt(integer(flag, takeValue(), 0))
        break
      case '--rpc.gasestimate.errorratio': {
        const value = takeValue()
        const ratio = Number(value)
        if (!/^\d+(\.\d+)?$/.test(value) || !(ratio < 1)) {
          throw new CliError(`${flag} expects a fraction from 0 to below 1 (geth's is 0.015), got "${value}"`)
        }
        opts.estimateGasErrorRatio = ratio
        break
      }
      case '--rpc.evmtimeout':
        opts.evmTimeoutMs = parseDuration(takeValue())
        break
      case '--workers':
        opts.workers = integer(flag, takeValue(), 0)
        break
      case '--rpc.batch.limit':
        opts.batchLimit = integer(flag, takeValue(), 1)
        break
      case '--rpc.response.limit':
        opts.responseLimit = integer(flag, takeValue(), 0)
        break
      case '--rpc.returndata.limit':
        opts.returnDataLimit = integer(flag, takeValue(), 0)
        break
      case '--rpc.overlay.getlogstimeout':
        opts.overlayGetLogsTimeoutMs = parseDuration(takeValue())
        break
      case '--rpc.overlay.replayblocktimeout':
        opts.overlayReplayBlockTimeoutMs = parseDuration(takeValue())
        break
      case '--bor.snapshotwalk':
        opts.borSnapshotWalk = integer(flag, takeValue(), 1)
        break
      case '--ots.search.maxblocks':
        opts.otsSearchMaxBlocks = integer(flag, takeValue(), 1)
        break
      case '--ots.search.scan':
        opts.otsSearchScan = true
        break
      case '--txpool.globalslots':
        opts.txpool.pendingSlots = integer(flag, takeValue(), 1)
        break
      case '--txpool.globalbasefeeslots':
        opts.txpool.baseFeeSlots = integer(flag, takeValue(), 1)
        break
      case '--txpool.globalqueue':
        opts.txpool.queuedSlots = integer(flag, takeValue(), 1)
        break
      case '--txpool.accountslots':
        opts.txpool.accountSlots = integer(flag, takeValue(), 1)
        break
      case '--txpool.pricebump':
        opts.txpool.priceBump = integer(flag, takeValue(), 0, 1000)
        break
      case '--chain':
        opts.chain = takeValue()
        break
      case '--hardfork': {
        opts.hardfork = takeValue()
        const refused = unexecutableHardfork(opts.hardfork)
        if (refused !== undefined) throw new CliError(refused)
        break
      }
      case '--unverified':
        opts.unverified = true
        break
      case '--engine': {
        const name = takeValue()
        if (name !== 'wasm' && name !== 'ethereumjs') throw new CliError(`--engine: wasm or ethereumjs, not ${name}`)
        opts.engine = name
        break
      }
      case '--trace.compat':
        opts.traceCompat = true
        break
      case '--beacon.upstream':
        opts.beaconUpstream = takeValue()
        if (!/^https?:\/\//.test(opts.beaconUpstream)) throw new CliError('--beacon.upstream must be an http(s):// URL')
        break
      case '--trust': {
        const value = takeValue()
        if (!TRUST_MODES.includes(value as TrustMode))
          throw new CliError(`--trust expects consensus, checkpoint or upstream, got "${value}"`)
        trust = value as TrustMode
        break
      }
      case '--network': {
        const value = takeValue()
        if (!KNOWN_NETWORK_NAMES.includes(value as KnownNetworkName))
          throw new CliError(
            `--network expects ${KNOWN_NETWORK_NAMES.join(', ')}, got "${value}" (another beacon chain: its node's config, or --beacon.config FILE)`,
          )
        opts.network = value as KnownNetworkName
        break
      }
      case '--beacon.config':
        opts.beaconConfig = takeValue()
        break
      case '--datadir':
        opts.datadir = takeValue()
        if (opts.datadir === '') throw new CliError('--datadir needs a directory')
        break
      case '--queue.redis':
        opts.queueRedis = redisUrl('--queue.redis', takeValue())
        break
      case '--queue.work':
        opts.queueWork = true
        break
      case '--queue.lock': {
        const text = takeValue()
        const ms = parseDuration(text)
        if (!(ms >= 1000))
          throw new CliError(
            `--queue.lock needs a duration of at least 1s (e.g. 30s), got ${JSON.stringify(text.slice(0, 100))}`,
          )
        opts.queueLockMs = ms
        break
      }
      case '--cache.redis':
        opts.cacheRedis = redisUrl('--cache.redis', takeValue())
        break
      case '--checkpoint.force':
        opts.checkpointForce = true
        break
      case '--checkpoint': {
        const value = takeValue()
        if (!/^0x[0-9a-fA-F]{64}$/.test(value))
          throw new CliError(`--checkpoint expects a block hash (0x and 64 hex digits), got "${value}"`)
        opts.checkpoint = value.toLowerCase() as Hex
        break
      }
      default:
        throw new CliError(`unknown flag ${flag} (see --help)`)
    }
  }
  if (opts.https && (opts.https.certFile === undefined || opts.https.keyFile === undefined))
    throw new CliError('--https.enabled needs --https.cert FILE and --https.key FILE')
  if (opts.devnetBeacon) {
    const clash = opts.upstream
      ? '--upstream'
      : opts.beaconUpstream
        ? '--beacon.upstream'
        : opts.checkpoint
          ? '--checkpoint'
          : trust
            ? '--trust'
            : opts.unverified
              ? '--unverified'
              : undefined
    if (clash)
      throw new CliError(
        `--devnet.beacon starts the embedded devnet with its own beacon chain (trust mode consensus): it cannot go with ${clash}`,
      )
  }
  opts.trust = trustMode(opts, trust)
  if (opts.beaconUpstream && opts.unverified)
    throw new CliError('--beacon.upstream anchors verified state: it cannot go with --unverified')
  if ((opts.queueWork || opts.queueLockMs !== undefined) && opts.queueRedis === undefined)
    throw new CliError('--queue.work and --queue.lock need --queue.redis URL (the queue to take stretches from)')
  return opts
}

/**
 * The trust mode: `--trust` checked against the flags it needs and those it contradicts, or the
 * default the flags given imply (consensus with a beacon node, checkpoint with a checkpoint alone,
 * else upstream). The beacon chain's flags go with consensus only.
 */
function trustMode(opts: CliOptions, given: TrustMode | undefined): TrustMode {
  if (given === 'consensus' && !opts.beaconUpstream)
    throw new CliError(
      '--trust consensus needs --beacon.upstream URL: the beacon node (any Beacon API) whose sync committee the light client follows',
    )
  if (given === 'checkpoint') {
    if (opts.beaconUpstream)
      throw new CliError(
        '--trust checkpoint with --beacon.upstream: the checkpoint walk follows no beacon node (--trust consensus does)',
      )
    if (!opts.checkpoint)
      throw new CliError(
        '--trust checkpoint needs --checkpoint HASH: a block hash you trust, which blocks asked by number or tag must link to',
      )
  }
  if (given === 'upstream' && (opts.checkpoint || opts.beaconUpstream))
    throw new CliError(
      `--trust upstream with ${opts.checkpoint ? '--checkpoint' : '--beacon.upstream'}: in trust mode upstream, which block is real is the upstream's word; drop ${opts.checkpoint ? '--checkpoint' : '--beacon.upstream'}, or use --trust ${opts.beaconUpstream ? 'consensus' : 'checkpoint'}`,
    )
  const mode = given ?? (opts.beaconUpstream ? 'consensus' : opts.checkpoint ? 'checkpoint' : 'upstream')
  if (mode !== 'consensus') {
    const beaconFlag = opts.network
      ? `--network ${opts.network}`
      : opts.beaconConfig
        ? '--beacon.config'
        : opts.checkpointForce
          ? '--checkpoint.force'
          : undefined
    if (beaconFlag)
      throw new CliError(
        `${beaconFlag} goes with trust mode consensus (--beacon.upstream URL); this start is in trust mode ${mode}`,
      )
  }
  if (opts.network && opts.beaconConfig)
    throw new CliError(
      `--beacon.config with --network ${opts.network}: a known network's config is edgetrace's own; --beacon.config is for other beacon chains`,
    )
  return mode
}
