import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export type RedisServer = {
  url: string
  port: number
  /** Ends the server at once (SIGKILL), as a crash would; `start()` brings it back on the same port, empty. */
  kill(): Promise<void>
  start(): Promise<void>
  stop(): Promise<void>
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/**
 * A redis-server (Debian's package; `.ci/run` installs it) on a free loopback port, with a temporary
 * directory and no persistence: the example fleet's (tools/fleet), the shared cache tier's tests' and
 * its benchmark's.
 */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'edgetrace-redis-'))
  let child: ChildProcess | undefined
  const start = () =>
    new Promise<void>((resolve, reject) => {
      const proc = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      )
      child = proc
      let output = ''
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${output}`)), 15_000)
      proc.on('error', (err) => {
        clearTimeout(timer)
        reject(new Error(`redis-server cannot be started (is Debian's redis-server installed?): ${err.message}`))
      })
      proc.stdout!.on('data', (d: Buffer) => {
        output += d.toString()
        if (/Ready to accept connections/.test(output)) {
          clearTimeout(timer)
          resolve()
        }
      })
      proc.stderr!.on('data', (d: Buffer) => (output += d.toString()))
    })
  const end = async (signal: NodeJS.Signals) => {
    const proc = child
    child = undefined
    if (!proc || proc.exitCode !== null) return
    const exited = new Promise((resolve) => proc.once('exit', resolve))
    proc.kill(signal)
    await exited
  }
  await start()
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill: () => end('SIGKILL'),
    start,
    async stop() {
      await end('SIGTERM')
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
