import { readFile } from 'node:fs/promises'
import type { GethGenesis } from '@ethereumjs/common'
import { CLIENT_VERSION } from '../rpc/web3/clientVersion.js'
import { redactUrl } from '../upstream/redactUrl.js'
import { CliError, USAGE, parseCliArgs } from './parseCliArgs.js'
import { startEdgetrace } from './startEdgetrace.js'
import { startWarnings } from './startWarnings.js'
import { installProcessGuard } from './installProcessGuard.js'

async function main(argv: string[]): Promise<void> {
  installProcessGuard((line) => console.error(line))
  const opts = parseCliArgs(argv)
  if (opts.help) {
    process.stdout.write(USAGE)
    return
  }
  const cleanups: (() => Promise<void>)[] = []
  let upstreamUrl = opts.upstream
  let upstreamNote = ''
  let hardfork = opts.hardfork
  let devnetLines: string[] = []
  if (upstreamUrl === undefined) {
    const { startDevnet } = await import('./devnet/startDevnet.js')
    console.log('no --upstream given: starting the embedded local devnet (anvil) …')
    const devnet = await startDevnet()
    cleanups.push(() => devnet.stop())
    upstreamUrl = devnet.anvil.url
    hardfork ??= devnet.anvil.hardfork
    upstreamNote = ` (embedded devnet: anvil, ${Object.keys(devnet.contracts).length} demo contracts, ${devnet.transactions.length} demo transactions)`
    devnetLines = [
      '  demo contracts:',
      ...Object.entries(devnet.contracts).map(([name, address]) => `    ${name.padEnd(10)} ${address}`),
      `  dev accounts: ${devnet.accounts.slice(0, 3).join(', ')}, … (unlocked at the upstream)`,
    ]
  }
  let genesis: GethGenesis | undefined
  if (opts.chain !== undefined) {
    try {
      genesis = JSON.parse(await readFile(opts.chain, 'utf8')) as GethGenesis
    } catch (err) {
      throw new CliError(`--chain ${opts.chain}: ${err instanceof Error ? err.message : String(err)}`)
    }
  }
  const server = await startEdgetrace({
    upstream: upstreamUrl as string,
    host: opts.host,
    port: opts.port,
    api: opts.api,
    corsDomains: opts.corsDomains,
    wsOrigins: opts.wsOrigins,
    vhosts: opts.vhosts,
    batchLimit: opts.batchLimit,
    genesis,
    hardfork,
    engine: {
      gasCap: opts.gasCap,
      evmTimeoutMs: opts.evmTimeoutMs,
      returnDataLimit: opts.returnDataLimit,
      unverified: opts.unverified,
      traceCompat: opts.traceCompat,
      overlayGetLogsTimeoutMs: opts.overlayGetLogsTimeoutMs,
      overlayReplayBlockTimeoutMs: opts.overlayReplayBlockTimeoutMs,
      otsSearchMaxBlocks: opts.otsSearchMaxBlocks,
      otsSearchIndex: !opts.otsSearchScan,
    },
    checkpoint: opts.checkpoint,
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
    opts.checkpoint
      ? `  trust:      blocks asked by number or tag must link by parent hashes to the checkpoint ${opts.checkpoint}${checkpoint ? ` (block ${checkpoint.number})` : ''}`
      : "  trust:      blocks asked by number or tag are the upstream's word (no --checkpoint given)",
    `  namespaces: ${opts.api.join(', ')}`,
    ...(opts.api.includes('trace')
      ? [
          opts.traceCompat
            ? "  traces:     trace_* in OpenEthereum's shapes (--trace.compat)"
            : "  traces:     trace_* in the reference daemon's (Erigon's) shapes",
        ]
      : []),
    `  listening:  ${server.url}  (WebSocket: ${server.wsUrl})`,
    ...devnetLines,
  ]
  if (devnetLines.length > 0) {
    const token = /Token +(0x[0-9a-f]+)/.exec(devnetLines.join('\n'))?.[1]
    lines.push(
      '  try:',
      `    curl -s ${server.url} -H 'content-type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"${token}","data":"0x18160ddd"},"latest"]}'`,
    )
  }
  console.log(lines.join('\n'))
  for (const warning of startWarnings(opts.host, server.handler.enabled)) console.warn(warning)
  const stop = async () => {
    for (const c of cleanups) await c().catch(() => {})
    process.exit(0)
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(`edgetrace: ${err instanceof Error ? err.message : String(err)}`)
  process.exit(1)
})
