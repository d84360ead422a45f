import { type ChildProcess, spawn } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import { type AddressInfo, createServer as createNetServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { NAMESPACES } from '../src/rpc/namespaces.js'
import { startAnvil } from '../src/node/devnet/startAnvil.js'
import { startFixtureNode } from '../tools/fixture-node/startFixtureNode.js'
import { CLI_ARGS } from './src/cliCommand.js'

// The first ten minutes, as a newcomer meets them: the CLI spawned as `npm start` runs it, its
// banner, its help, and the start-up errors it must explain without a stack trace.
const ROOT = resolve(import.meta.dirname, '..')
const TSX = resolve(ROOT, 'node_modules/tsx/dist/esm/index.mjs')

type Run = { code: number | null; stdout: string; stderr: string }

function runCli(args: string[], opts: { cwd?: string; timeoutMs?: number } = {}): Promise<Run> {
  const cwd = opts.cwd ?? ROOT
  // Another tree (a copied install) runs its own sources through tsx; this one, the run's compiled copy.
  const entry = opts.cwd === undefined ? CLI_ARGS : ['--import', TSX, join(cwd, 'src/node/cli.ts')]
  const child = spawn(process.execPath, [...entry, ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      fail(new Error(`the CLI did not exit in time:\n${stdout}\n${stderr}`))
    }, opts.timeoutMs ?? 40_000)
    child.on('exit', (code) => {
      clearTimeout(timer)
      done({ code, stdout, stderr })
    })
  })
}

/** Starts the CLI and resolves with its whole banner once it says where to open the explorer. */
function startCli(
  args: string[],
  opts: { asNpmStart?: boolean } = {},
): Promise<{ child: ChildProcess; banner: string; exited: Promise<number | NodeJS.Signals | null> }> {
  // `asNpmStart`: through tsx, exactly as `npm start` runs it; else the run's compiled copy (quicker).
  const entry = opts.asNpmStart ? ['--import', TSX, 'src/node/cli.ts'] : CLI_ARGS
  const child = spawn(process.execPath, [...entry, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  // The exit code, or the signal that ended the process (a crash names itself: SIGABRT, SIGSEGV).
  const exited = new Promise<number | NodeJS.Signals | null>((done) =>
    child.on('exit', (code, signal) => done(code ?? signal)),
  )
  let output = ''
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no banner: ${output}`)), 90_000)
    const onData = (d: Buffer) => {
      output += d.toString()
      if (/\n(open|JSON-RPC at) http:\/\/\S+/.test(output)) {
        clearTimeout(timer)
        done({ child, banner: output, exited })
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.on('exit', () => fail(new Error(`the CLI exited: ${output}`)))
  })
}

const rpc = async (url: string, method: string, params: unknown[]) => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return (await res.json()) as { result?: any; error?: { code: number; message: string } }
}

const noStackTrace = (text: string) => expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/)

const cleanups: (() => void)[] = []
afterAll(() => {
  for (const c of cleanups) c()
})

describe('npm start on the embedded devnet', () => {
  it('serves tracing by default, lists the demo transactions and ready curl lines, and ends with the explorer URL', async () => {
    const { child, banner, exited } = await startCli(['--http.port', '0'], { asNpmStart: true })
    cleanups.push(() => child.kill('SIGKILL'))
    expect(banner).toContain('namespaces: eth, vendor, debug, trace, txpool, web3, net')
    const rows = [...banner.matchAll(/^ {4}(0x[0-9a-f]{64}) +(\d+) +(ok|reverted) +(.+)$/gm)]
    expect(rows.length).toBeGreaterThanOrEqual(30)
    const labels = rows.map((r) => r[4])
    expect(labels).toContain('nested token calls (transferFrom, transfer, balanceOf)')
    expect(labels).toContain('revert with Error(string)')
    const url = /\nopen (http:\/\/\S+)\/ — the trace explorer/.exec(banner)?.[1]
    expect(url, banner).toBeDefined()
    expect(banner.trimEnd().split('\n').at(-1)).toBe(`open ${url}/ — the trace explorer`)

    // The curl lines are ready to paste: their payloads trace the nested transaction.
    const payloads = [...banner.matchAll(/^ {4}curl -s (\S+) -H 'content-type: application\/json' -d '(.+)'$/gm)]
    expect(payloads.map((p) => JSON.parse(p[2]!).method)).toEqual(['debug_traceTransaction', 'trace_transaction'])
    const nested = rows.find((r) => r[4]!.startsWith('nested token calls'))![1]!
    for (const [, target, body] of payloads) {
      expect(target).toBe(url)
      const { method, params } = JSON.parse(body!)
      expect(params[0]).toBe(nested)
      const answer = await rpc(target!, method, params)
      expect(answer.error).toBeUndefined()
      if (method === 'debug_traceTransaction') {
        expect(answer.result.calls.length).toBeGreaterThanOrEqual(2)
        expect(answer.result.calls[0].calls).toBeUndefined()
      } else {
        expect(answer.result.length).toBeGreaterThanOrEqual(3)
      }
    }
    // The explorer page itself, from the same server (no second server, no CORS).
    const page = await fetch(`${url}/`)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await page.text()).toContain('<title>edgetrace')
    // On loopback, the full health report: live and ready (the head resolved).
    expect(await (await fetch(`${url}/health`)).json()).toMatchObject({ status: 'ok', live: true, ready: true })

    // At anvil's genesis, the proof error explains itself in one line and says what to do.
    const genesis = await rpc(url!, 'debug_traceBlockByNumber', ['0x1'])
    expect(genesis.error?.message).toBe(
      "state does not verify: block 1's parent state (a genesis like anvil's, whose header commits to an empty state) cannot be proven: mine one empty block first",
    )

    child.kill('SIGINT')
    expect(await exited).toBe(0)
  })

  it('--help names every namespace with a line saying what it is', async () => {
    const { code, stdout } = await runCli(['--help'])
    expect(code).toBe(0)
    for (const ns of NAMESPACES) expect(stdout).toMatch(new RegExp(`^ {4}${ns.name}\\b.{10,}$`, 'm'))
    expect(stdout).toMatch(/^ {4}vendor \(erigon\) +the reference daemon's own extensions/m)
    expect(stdout).toContain('--http.explorer')
  })
})

describe('start-up errors a newcomer understands', () => {
  it('a port in use is said first: no stack trace, no devnet started', async () => {
    const blocker = createNetServer()
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done))
    cleanups.push(() => blocker.close())
    const port = (blocker.address() as AddressInfo).port
    const { code, stdout, stderr } = await runCli(['--http.port', String(port)])
    expect(code).toBe(1)
    expect(stderr.trim()).toBe(`edgetrace: port ${port} is in use on 127.0.0.1: try --http.port 0 (any free port)`)
    expect(stdout).not.toContain('devnet')
    noStackTrace(stderr)
  })

  it('unknown namespaces in --http.api are refused, naming the known ones', async () => {
    const { code, stderr } = await runCli(['--http.api', 'eth,trac,debgu'])
    expect(code).toBe(1)
    expect(stderr).toContain('--http.api: unknown namespaces "trac", "debgu" (known: eth, vendor, erigon, web3, net,')
    noStackTrace(stderr)
  })

  it('--hardfork amsterdam (a fork it cannot execute) or an unknown name is refused at start, naming the forks it runs', async () => {
    // A real node behind it: before, amsterdam started, then every trace failed with "header does not verify".
    const anvil = await startAnvil({ port: 0 })
    cleanups.push(() => void anvil.stop())
    const args = ['--upstream', anvil.url, '--http.port', '0', '--hardfork']
    const runs = ['--hardfork amsterdam: edgetrace cannot execute it yet', '--hardfork pragu: no such hardfork']
    for (const [i, name] of ['amsterdam', 'pragu'].entries()) {
      const { code, stdout, stderr } = await runCli([...args, name!])
      expect(code).toBe(1)
      expect(stderr).toContain(runs[i])
      expect(stderr).toContain('The forks it runs: chainstart, homestead,')
      expect(stderr).toContain('shanghai, cancun, prague, osaka, bpo1, bpo2\n')
      expect(stderr).not.toMatch(/forks it runs:.*amsterdam/)
      expect(stdout).toBe('')
      noStackTrace(stderr)
    }
    // A fork it runs starts.
    const { child, banner, exited } = await startCli([...args, 'osaka'])
    child.kill('SIGINT')
    expect(await exited).toBe(0)
    expect(banner).toContain('--hardfork osaka')
    await anvil.stop()
  })

  it('an upstream that answers but is no JSON-RPC node is called that', async () => {
    const web = createHttpServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><h1>Not Found</h1>')
    })
    await new Promise<void>((done) => web.listen(0, '127.0.0.1', done))
    cleanups.push(() => web.close())
    const upstream = `http://127.0.0.1:${(web.address() as AddressInfo).port}`
    const { code, stderr } = await runCli(['--upstream', upstream, '--http.port', '0'])
    expect(code).toBe(1)
    expect(stderr).toContain(`the upstream ${upstream} answered, but it is not a JSON-RPC node`)
    expect(stderr).toContain('HTTP 404 (text/html)')
    noStackTrace(stderr)
  })

  it('an upstream nobody listens at is said plainly', async () => {
    const free = createNetServer()
    await new Promise<void>((done) => free.listen(0, '127.0.0.1', done))
    const port = (free.address() as AddressInfo).port
    await new Promise<void>((done) => free.close(() => done()))
    const { code, stderr } = await runCli(['--upstream', `http://127.0.0.1:${port}`, '--http.port', '0'])
    expect(code).toBe(1)
    expect(stderr).toContain(`cannot reach the upstream http://127.0.0.1:${port}: ECONNREFUSED`)
    noStackTrace(stderr)
  })

  it('an installed edgetrace without the devnet package says how to get it, or to use --upstream', async () => {
    // An install without dev dependencies: the sources, and every package but anvil's.
    const dir = mkdtempSync(join(tmpdir(), 'edgetrace-noanvil-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    cpSync(join(ROOT, 'src'), join(dir, 'src'), { recursive: true })
    cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'))
    mkdirSync(join(dir, 'node_modules'))
    for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
      if (entry === '@foundry-rs' || entry === '.bin') continue
      symlinkSync(join(ROOT, 'node_modules', entry), join(dir, 'node_modules', entry), 'dir')
    }
    const { code, stderr } = await runCli(['--http.port', '0'], { cwd: dir })
    expect(code).toBe(1)
    expect(stderr).toContain('the embedded devnet needs anvil, which is not installed here')
    expect(stderr).toContain('npm install @foundry-rs/anvil')
    expect(stderr).toContain('--upstream URL')
    noStackTrace(stderr)
  })
})

describe('--chain with a genesis written for another client', () => {
  it('starts on a genesis with fields edgetrace does not know, naming them in one warning', async () => {
    const apis = join(ROOT, 'test/fixtures/execution-apis')
    const genesis = JSON.parse(readFileSync(join(apis, 'genesis.json'), 'utf8')) as { config: Record<string, unknown> }
    const node = await startFixtureNode({ genesis, blocks: new Uint8Array(readFileSync(join(apis, 'chain.rlp'))) })
    cleanups.push(() => void node.close())
    // Besu's fields: its bootnodes and its base fee rule (geth ignores both).
    genesis.config.discovery = { bootnodes: [] }
    genesis.config.zeroBaseFee = false
    const dir = mkdtempSync(join(tmpdir(), 'edgetrace-chain-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    const file = join(dir, 'besu-genesis.json')
    writeFileSync(file, JSON.stringify(genesis))
    const { child, banner, exited } = await startCli(['--upstream', node.url, '--chain', file, '--http.port', '0'])
    cleanups.push(() => child.kill('SIGKILL'))
    let output = banner
    const warning =
      'WARNING: --chain: ignoring genesis config fields edgetrace does not know: "discovery", "zeroBaseFee"'
    await new Promise<void>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`no warning: ${output}`)), 10_000)
      const check = (d?: Buffer) => {
        if (d) output += d.toString()
        if (output.includes(warning)) {
          clearTimeout(timer)
          done()
        }
      }
      child.stderr!.on('data', check)
      check()
    })
    expect(output.split(warning).length).toBe(2)
    child.kill('SIGINT')
    expect(await exited).toBe(0)
  })
})
