import { parseArgs } from 'node:util'
import { startDevnet } from '../../src/node/devnet/startDevnet.js'
import { startFleet } from './startFleet.js'

const USAGE = `usage: npm run fleet -- [--upstream URL] [--servers N] [--port N] [--redis URL] [-- <more edgetrace flags>]

An example fleet on this machine: a redis-server (Debian's package) or the --redis given, N edgetrace
servers (default 3) in front of one upstream sharing it as their verified cache (--cache.redis), and a
round-robin HTTP load balancer on 127.0.0.1:--port (default 8545). Without --upstream, the embedded
devnet (anvil) is started for them all. Flags after -- go to every server (e.g. --http.api eth,debug,trace).
See docs/fleet.md.`

async function main(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      upstream: { type: 'string' },
      servers: { type: 'string' },
      port: { type: 'string' },
      redis: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: true,
  })
  if (values.help) return void console.log(USAGE)
  const servers = values.servers === undefined ? 3 : Number(values.servers)
  const port = values.port === undefined ? 8545 : Number(values.port)
  if (!Number.isInteger(servers) || servers < 1 || servers > 64) throw new Error('--servers needs a count from 1 to 64')
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('--port needs a port number')
  const devnet = values.upstream === undefined ? await startDevnet() : undefined
  const upstream = values.upstream ?? devnet!.anvil.url
  const fleet = await startFleet({
    upstream,
    servers,
    port,
    ...(values.redis !== undefined ? { redisUrl: values.redis } : {}),
    serverArgs: [...(devnet ? ['--hardfork', 'prague'] : []), ...positionals],
    log: (line) => console.log(line),
  })
  const stop = async () => {
    await fleet.close()
    await devnet?.stop()
    process.exit(0)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(`fleet: ${err instanceof Error ? err.message : String(err)}`)
  process.exit(1)
})
