import { type ChildProcess, spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { type Balancer, createBalancer } from './createBalancer.js'
import { type RedisServer, startRedis } from './startRedis.js'

const ROOT = resolve(import.meta.dirname, '../..')

export type FleetServer = { url: string; child: ChildProcess; output: () => string }

export type Fleet = {
  /** The load balancer's URL: where clients send JSON-RPC. */
  url: string
  redisUrl: string
  servers: FleetServer[]
  balancer: Balancer
  close(): Promise<void>
}

export type StartFleetParameters = {
  /** The upstream every server is in front of. */
  upstream: string
  /** How many edgetrace servers (default 3). */
  servers?: number
  /** The load balancer's port (default 0: any free one). */
  port?: number
  /** A Redis (or Valkey) to share; none: a redis-server is started for the fleet (Debian's package). */
  redisUrl?: string
  /** More flags for every server (e.g. `--hardfork prague`, `--http.api eth,debug,trace`). */
  serverArgs?: readonly string[]
  /** How to run the CLI after `node` (default: src/node/cli.ts through tsx, as `npm start` runs it). */
  cli?: readonly string[]
  log?: (line: string) => void
}

/** Starts one edgetrace server (the CLI) and resolves once it says where it listens. */
function startServer(args: readonly string[], cli: readonly string[]): Promise<FleetServer> {
  const child = spawn(process.execPath, [...cli, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      fail(new Error(`an edgetrace server did not start within 60 s:\n${output}`))
    }, 60_000)
    const onData = (d: Buffer) => {
      output += d.toString()
      const url = /listening: +(http:\/\/\S+)/.exec(output)?.[1]
      if (url) {
        clearTimeout(timer)
        done({ url, child, output: () => output })
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.on('exit', (code) => {
      clearTimeout(timer)
      fail(new Error(`an edgetrace server exited (${code}) before it listened:\n${output}`))
    })
  })
}

/**
 * An example fleet on one machine: a Redis (given, or a redis-server started for it), `servers`
 * edgetrace servers in front of the same upstream sharing it as their verified cache
 * (`--cache.redis`), and a round-robin HTTP load balancer in front of them (createBalancer). What
 * `npm run fleet` starts, and what the fleet's tests start.
 */
export async function startFleet({
  upstream,
  servers: count = 3,
  port = 0,
  redisUrl,
  serverArgs = [],
  cli = ['--import', 'tsx', 'src/node/cli.ts'],
  log = () => {},
}: StartFleetParameters): Promise<Fleet> {
  const redis: RedisServer | undefined = redisUrl === undefined ? await startRedis() : undefined
  const shared = redisUrl ?? redis!.url
  const servers: FleetServer[] = []
  try {
    const args = ['--upstream', upstream, '--http.port', '0', '--cache.redis', shared, ...serverArgs]
    servers.push(...(await Promise.all(Array.from({ length: count }, () => startServer(args, cli)))))
    const balancer = await createBalancer({ backends: servers.map((s) => s.url), port })
    log(`fleet: ${count} edgetrace servers (${servers.map((s) => s.url).join(', ')}) sharing ${shared}`)
    log(`fleet: JSON-RPC at ${balancer.url} (round robin)`)
    return {
      url: balancer.url,
      redisUrl: shared,
      servers,
      balancer,
      async close() {
        await balancer.close()
        await Promise.all(servers.map((s) => stop(s.child)))
        await redis?.stop()
      },
    }
  } catch (err) {
    await Promise.all(servers.map((s) => stop(s.child)))
    await redis?.stop()
    throw err
  }
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((done) => child.once('exit', done))
  child.kill('SIGTERM')
  await exited
}
