import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

export type StartAnvilParameters = {
  /** Extra anvil flags, e.g. ['--steps-tracing']. */
  args?: string[]
  /** EVM hardfork anvil runs (default prague). */
  hardfork?: string
  chainId?: number
  /** 0 picks a free port. */
  port?: number
}

export type AnvilInstance = {
  url: string
  port: number
  hardfork: string
  chainId: number
  process: ChildProcess
  stop(): Promise<void>
  /** anvil's own $HOME (where it writes states it keeps on disk), removed once anvil has exited. */
  home: string
}

const platformPackages: Record<string, string> = {
  'linux-x64': '@foundry-rs/anvil-linux-amd64',
  'linux-arm64': '@foundry-rs/anvil-linux-arm64',
  'darwin-x64': '@foundry-rs/anvil-darwin-amd64',
  'darwin-arm64': '@foundry-rs/anvil-darwin-arm64',
  'win32-x64': '@foundry-rs/anvil-win32-amd64',
}

/** Path of the anvil binary shipped by the `@foundry-rs/anvil` npm package (a dev dependency). */
export function resolveAnvilBinary(): string {
  const require = createRequire(import.meta.url)
  const pkg = platformPackages[`${process.platform}-${process.arch}`]
  if (!pkg) throw new Error(`anvil has no build for ${process.platform}-${process.arch}`)
  let dir: string
  try {
    dir = dirname(require.resolve(`${pkg}/package.json`))
  } catch {
    throw new Error(
      `the embedded devnet needs anvil, which is not installed here (npm package ${pkg}). Install it next to edgetrace with \`npm install @foundry-rs/anvil\` (in a clone of edgetrace, \`npm install\` does), or run against a node of yours: edgetrace --upstream URL`,
    )
  }
  const bin = join(dir, 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil')
  if (!existsSync(bin)) throw new Error(`anvil binary missing at ${bin}`)
  return bin
}

/** Starts a real anvil node on loopback and resolves once it listens. */
export async function startAnvil({
  args = [],
  hardfork = 'prague',
  chainId = 31337,
  port = 0,
}: StartAnvilParameters = {}): Promise<AnvilInstance> {
  // anvil writes the states it keeps off memory under $HOME/.foundry/anvil/tmp and never removes them
  // (a few MB a run; gigabytes with --max-persisted-states): each anvil gets a home of its own,
  // removed once it has exited, so runs do not fill the disk.
  const home = mkdtempSync(join(tmpdir(), 'edgetrace-anvil-'))
  const removeHome = () => rmSync(home, { recursive: true, force: true })
  const child = spawn(
    resolveAnvilBinary(),
    ['--host', '127.0.0.1', '--port', String(port), '--hardfork', hardfork, '--chain-id', String(chainId), ...args],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HOME: home } },
  )
  // Never outlive the process that started it (a test worker that is torn down, a killed CLI).
  const killOnExit = () => {
    child.kill('SIGKILL')
    removeHome()
  }
  process.once('exit', killOnExit)
  child.once('exit', () => {
    process.off('exit', killOnExit)
    removeHome()
  })
  let output = ''
  const listening = new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /Listening on [\d.]+:(\d+)/.exec(output)
      if (match) {
        child.stdout?.off('data', onData)
        child.stdout?.resume()
        resolve(Number(match[1]))
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.once('exit', (code) => reject(new Error(`anvil exited (${code}) before listening:\n${output}`)))
    child.once('error', reject)
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
  const actualPort = await listening.finally(() => clearTimeout(timer))
  child.stderr?.resume()
  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    hardfork,
    chainId,
    process: child,
    home,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}
