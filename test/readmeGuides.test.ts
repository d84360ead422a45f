import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import ts from 'typescript'
import * as viem from 'viem'
import { transformWithOxc } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEip1193Provider } from '../src/browser/createEip1193Provider.js'
import type { EdgetraceClient } from '../src/browser/connectEdgetraceWorker.js'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import * as edgetraceRoot from '../src/node/index.js'
import type { EdgetraceProvider, ProviderRpcError } from '../src/node/index.js'
import { rpcResult, waitForReceipt } from './src/rpc.js'
import { runCli } from './src/runCli.js'
import { distIsFresh } from './src/distIsFresh.js'

// The README's three guides run as they are printed (issue 35), so the docs cannot rot: every code
// block marked ```sh guide=… or ```ts guide=… is taken from README.md and run against a fresh anvil.
// - guide=cli: each shell line run as its equivalent — anvil is this test's, `cast rpc` and `curl`
//   are the same JSON-RPC posts by fetch, `npx edgetrace` is the CLI from the sources (tsx).
// - guide=viem, guide=preview: the TypeScript run in Node, `edgetrace` the package root's Node build.
// - guide=wallet: the page's code run in Node with its one browser piece stood in for: the worker
//   client (connectEdgetraceWorker) is the same daemon in this process; createEip1193Provider, the
//   preview and the wallet (anvil's unlocked account) are real. test/browser/walletPreview.browser.test.ts
//   runs that gate in Chromium.
// The only edits: the guides' addresses (127.0.0.1:8545 anvil's, :8546 edgetrace's) become this
// run's ports, and the placeholder hash `0x…` the hash the guide's own transaction got.

const ROOT = resolve(import.meta.dirname, '..')
const README = readFileSync(resolve(ROOT, 'README.md'), 'utf8')
const GUIDE_ANVIL = 'http://127.0.0.1:8545'
const GUIDE_EDGETRACE = 'http://127.0.0.1:8546'
const ONE_ETH = '0xde0b6b3a7640000'
const SENDER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const RECIPIENT = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'

/** The code blocks of one guide, in order. */
function guide(name: string): string[] {
  const blocks = [...README.matchAll(/^```(\w+) guide=(\S+)\n([\s\S]*?)^```$/gm)]
    .filter((m) => m[2] === name)
    .map((m) => m[3] as string)
  if (blocks.length === 0) throw new Error(`README.md has no code block marked guide=${name}`)
  return blocks
}

/** A shell line's words, as sh splits them: quotes, `$VAR`, a `#` comment, a trailing `&`. */
function shellWords(line: string, vars: Record<string, string>): string[] {
  const variable = (name: string) => {
    const value = vars[name]
    if (value === undefined) throw new Error(`guide uses $${name} before setting it`)
    return value
  }
  const words: string[] = []
  let word = ''
  let inWord = false
  for (let i = 0; i < line.length; ) {
    const c = line[i] as string
    if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1)
      const quoted = line.slice(i + 1, end)
      word += c === '"' ? quoted.replace(/\$(\w+)/g, (_, n: string) => variable(n)) : quoted
      i = end + 1
      inWord = true
    } else if (c === '$') {
      const name = /^\$(\w+)/.exec(line.slice(i))?.[1] as string
      word += variable(name)
      i += name.length + 1
      inWord = true
    } else if (c === '#' && !inWord) {
      break
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word)
      word = ''
      inWord = false
      i++
    } else {
      word += c
      inWord = true
      i++
    }
  }
  if (inWord) words.push(word)
  if (words.at(-1) === '&') words.pop()
  return words
}

/** The commands of shell blocks: backslash-continued lines joined, blank lines left out. */
const shellLines = (blocks: string[]) =>
  blocks
    .join('\n')
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .filter((l) => l.trim() !== '')

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
  return (await res.json()) as { result?: unknown; error?: { code: number; message: string } }
}

/**
 * A guide's TypeScript run as a module would run it: its imports taken from `modules`, its types
 * stripped, and the page's globals it names (`window`, `console`, `confirm`, `Worker`) given.
 */
async function runTs(code: string, modules: Record<string, Record<string, unknown>>, globals: Record<string, unknown>) {
  const imported = code.replace(/^import \{([^}]*)\} from '([^']+)'$/gm, (_, names: string, from: string) => {
    if (!modules[from]) throw new Error(`guide imports ${from}, which this test does not provide`)
    return `const {${names}} = __modules[${JSON.stringify(from)}]`
  })
  expect(imported).not.toMatch(/^import /m)
  const js = (await transformWithOxc(imported, 'guide.ts', { lang: 'ts' })).code.replace(/^export \{\};?$/m, '')
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
    ...args: string[]
  ) => (...values: unknown[]) => Promise<void>
  const names = Object.keys(globals)
  await new AsyncFunction('__modules', ...names, js)(modules, ...names.map((n) => globals[n]))
}

/** A wallet's EIP-1193 provider over anvil (its unlocked dev accounts sign), logging what it is asked. */
function walletOver(url: string, asked: { method: string; result?: unknown }[]) {
  return {
    async request({ method, params = [] }: { method: string; params?: unknown }) {
      // A wallet answers eth_requestAccounts with the accounts the user connected: anvil's.
      const res = await post(url, {
        jsonrpc: '2.0',
        id: 1,
        method: method === 'eth_requestAccounts' ? 'eth_accounts' : method,
        params,
      })
      asked.push({ method, result: res.result })
      if (res.error) throw Object.assign(new Error(res.error.message), res.error)
      return res.result
    },
  }
}

let anvil: AnvilInstance
const opened: EdgetraceProvider[] = []
const stops: (() => void)[] = []
/** The guide's transaction (guide=cli sends it): the viem guide traces it too. */
let guideTx: string

/** The package root, its createEdgetrace keeping what it opened for the end of the run. */
const edgetraceModule = {
  ...edgetraceRoot,
  createEdgetrace: async (options: Parameters<typeof edgetraceRoot.createEdgetrace>[0]) => {
    const e = await edgetraceRoot.createEdgetrace(options)
    opened.push(e)
    return e
  },
}

beforeAll(async () => {
  anvil = await startAnvil()
}, 60_000)
afterAll(async () => {
  for (const stop of stops) stop()
  for (const e of opened) await e.close().catch(() => {})
  await anvil?.stop()
})

/** anvil's own callTracer frame of a transaction; its root `gas` is anvil's to differ in (test/differential). */
const anvilFrame = (hash: string) =>
  rpcResult(anvil.url, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }]) as Promise<Record<string, unknown>>

describe.sequential("the README's guides, run against a fresh anvil", () => {
  it('guide=cli: a fresh anvil, one empty block, a transaction, npx edgetrace in front; curl and cast trace it', async () => {
    const vars: Record<string, string> = {}
    const outputs: { command: string; result: unknown }[] = []
    let edgetraceUrl: string | undefined
    const urls = (word: string) =>
      word.replaceAll(GUIDE_ANVIL, anvil.url).replaceAll(GUIDE_EDGETRACE, edgetraceUrl ?? GUIDE_EDGETRACE)
    let sent: string | undefined

    for (const line of shellLines(guide('cli'))) {
      const assignment = /^(\w+)=(\S+)/.exec(line)
      if (assignment) {
        // `TX=0x…`: the hash eth_sendTransaction printed, as the guide says.
        const [, name, value] = assignment as unknown as [string, string, string]
        vars[name] = value.includes('…') ? (sent as string) : value
        expect(vars[name], line).toMatch(/^0x[0-9a-f]{64}$/)
        continue
      }
      const [command, ...args] = shellWords(line, vars).map(urls)
      if (command === 'anvil') {
        // This test's anvil, as fresh: nothing mined yet.
        expect(await rpcResult(anvil.url, 'eth_blockNumber')).toBe('0x0')
      } else if (command === 'cast' && args[0] === 'rpc') {
        const rest = args.slice(1)
        const at = rest.indexOf('--rpc-url')
        const url = at >= 0 ? (rest.splice(at, 2)[1] as string) : anvil.url
        const [method, ...params] = rest as [string, ...string[]]
        // cast rpc: each parameter as JSON where it parses, else as a string.
        const parsed = params.map((p) => {
          try {
            return JSON.parse(p) as unknown
          } catch {
            return p
          }
        })
        const res = await post(url, { jsonrpc: '2.0', id: 1, method, params: parsed })
        expect(res.error, line).toBeUndefined()
        outputs.push({ command: `cast ${method}`, result: res.result })
        if (method === 'eth_sendTransaction') sent = res.result as string
      } else if (command === 'curl') {
        const url = args.find((a) => a.startsWith('http')) as string
        const body = args[args.indexOf('-d') + 1] as string
        const header = (args[args.indexOf('-H') + 1] as string).split(/:\s*/) as [string, string]
        const res = await post(url, JSON.parse(body), { [header[0]]: header[1] })
        outputs.push({ command: 'curl', result: res.result ?? res })
      } else if (command === 'npx' && args[0] === 'edgetrace') {
        const cliArgs = args.slice(1).map((a, i, all) => (all[i - 1] === '--http.port' ? '0' : a))
        const cli = await runCli(cliArgs, /listening:\s+http:\/\/\S+/)
        stops.push(cli.kill)
        edgetraceUrl = /listening:\s+(http:\/\/[^\s/]+)/.exec(cli.output)?.[1]
        expect(edgetraceUrl, cli.output).toBeDefined()
      } else {
        throw new Error(`guide=cli: no equivalent for ${line}`)
      }
    }

    // The transaction landed in block 2: the empty block first, as the tip says.
    expect(sent).toBeDefined()
    guideTx = sent as string
    const receipt = (await rpcResult(anvil.url, 'eth_getTransactionReceipt', [guideTx])) as { blockNumber: string }
    expect(receipt.blockNumber).toBe('0x2')
    // curl and cast answered the same call tree, anvil's own (its root gas aside).
    const traces = outputs.filter((o) => o.command === 'curl' || o.command === 'cast debug_traceTransaction')
    expect(traces.map((t) => t.command)).toEqual(['curl', 'cast debug_traceTransaction'])
    const [curl, cast] = traces.map((t) => t.result as Record<string, unknown>) as [
      Record<string, unknown>,
      Record<string, unknown>,
    ]
    expect(cast).toEqual(curl)
    expect(curl).toMatchObject({ type: 'CALL', from: SENDER, to: RECIPIENT, value: ONE_ETH })
    expect(curl).toEqual({ ...(await anvilFrame(guideTx)), gas: curl.gas })
  }, 180_000)

  it('guide=viem: createEdgetrace over the wallet provider behind viem custom(): the receipt and the trace', async () => {
    expect(guideTx).toBeDefined()
    const [code] = guide('viem') as [string]
    const asked: { method: string }[] = []
    const logged: unknown[][] = []
    await runTs(
      code.replace("'0x…'", `'${guideTx}'`),
      { edgetrace: edgetraceModule, viem },
      { window: { ethereum: walletOver(anvil.url, asked) }, console: { log: (...a: unknown[]) => logged.push(a) } },
    )
    const anvils = await anvilFrame(guideTx)
    expect(logged).toEqual([['success', 'CALL', RECIPIENT, anvils.gasUsed]])
    // State was read through the wallet's provider (window.ethereum), proofs included.
    expect(asked.some((a) => a.method === 'eth_getProof')).toBe(true)
  }, 120_000)

  it('guide=preview: previewTransactions of 1 ETH — success, the ether the account loses, the signals', async () => {
    const [code] = guide('preview') as [string]
    const logged: unknown[][] = []
    await runTs(
      code.replaceAll(GUIDE_ANVIL, anvil.url),
      { edgetrace: edgetraceModule },
      {
        console: { log: (...a: unknown[]) => logged.push(a) },
      },
    )
    expect(logged).toHaveLength(1)
    const [status, assetChanges, signals] = logged[0] as [
      string,
      { token: { symbol: string }; value: { diff: string } }[],
      unknown[],
    ]
    expect(status).toBe('success')
    const eth = assetChanges.find((c) => c.token.symbol === 'ETH')
    // The ether sent; the gas is said apart (gasPaid).
    expect(eth?.value.diff).toBe(`-${ONE_ETH}`)
    expect(Array.isArray(signals)).toBe(true)
  }, 120_000)

  it('guide=wallet: the gate previews eth_sendTransaction; confirmed, the wallet sends it; refused, 4001 and the wallet never asked', async () => {
    const [code] = guide('wallet') as [string]
    const page = code.replaceAll(GUIDE_ANVIL, anvil.url)
    const workers: string[] = []
    class Worker {
      constructor(url: string) {
        workers.push(url)
      }
    }
    /** The worker client, stood in for by the same daemon in this process (see the top of the file). */
    const connectEdgetraceWorker = async (worker: unknown, config: { upstream: string; hardfork?: string }) => {
      expect(worker).toBeInstanceOf(Worker)
      const edgetrace = await edgetraceModule.createEdgetrace({ upstream: config.upstream, hardfork: config.hardfork })
      const chainId = (await edgetrace.request({ method: 'eth_chainId' })) as string
      let closed = false
      const call = async (method: string, params: unknown = []) => {
        try {
          return { jsonrpc: '2.0', id: 1, result: await edgetrace.request({ method, params: params as unknown[] }) }
        } catch (err) {
          const { code, message, data } = err as ProviderRpcError
          return { jsonrpc: '2.0', id: 1, error: { code, message, ...(data === undefined ? {} : { data }) } }
        }
      }
      return {
        started: { chainId, reachable: true },
        get closed() {
          return closed
        },
        on: () => () => {},
        call,
        request: async (m: { method: string; params?: unknown }) => call(m.method, m.params),
        close: async () => {
          closed = true
          await edgetrace.close()
        },
      } as unknown as EdgetraceClient
    }

    const run = async (answer: boolean) => {
      const asked: { method: string; result?: unknown }[] = []
      const prompts: string[] = []
      const outcome = await runTs(
        page,
        { 'edgetrace/browser': { connectEdgetraceWorker, createEip1193Provider } },
        {
          window: { ethereum: walletOver(anvil.url, asked) },
          Worker,
          confirm: (message: string) => {
            prompts.push(message)
            return answer
          },
        },
      ).then(
        () => null,
        (err: unknown) => err as ProviderRpcError,
      )
      return { asked, prompts, outcome }
    }

    const sent = await run(true)
    expect(sent.outcome).toBeNull()
    expect(workers).toEqual(['/edgetrace.worker.js'])
    expect(sent.prompts).toHaveLength(1)
    expect(sent.prompts[0]).toMatch(/^success; your balances change by\nETH: -0x[0-9a-f]+\nSign\?$/)
    const sends = sent.asked.filter((a) => a.method === 'eth_sendTransaction')
    expect(sends).toHaveLength(1)
    // anvil answers eth_sendTransaction before it mines: its receipt is waited for.
    const receipt = (await waitForReceipt(anvil.url, String(sends[0]?.result))) as {
      status: string
      to: string
    }
    expect(receipt).toMatchObject({ status: '0x1', to: RECIPIENT })

    const refused = await run(false)
    expect(refused.prompts).toHaveLength(1)
    expect(refused.outcome).toMatchObject({ code: 4001 })
    expect(refused.asked.map((a) => a.method)).not.toContain('eth_sendTransaction')
  }, 180_000)

  it('the TypeScript guides type-check as a strict consumer compiles them (copy-paste code that compiles)', () => {
    // Each ts guide as a module of its own, viem from node_modules, `window.ethereum` declared as a dapp
    // declares its wallet's provider, and `edgetrace` / `edgetrace/browser` the declarations a consumer
    // gets: dist/'s when they are newer than every source (CI: `npm ci` built them; 3 s of CPU), else
    // the sources themselves (the whole graph checked: ~20 s of CPU). Only the guides' diagnostics count.
    const dir = join(ROOT, 'node_modules/.cache/edgetrace-readme-guides')
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    const names = ['viem', 'wallet', 'preview']
    for (const name of names) writeFileSync(join(dir, `${name}.ts`), `${guide(name).join('\n')}\nexport {}\n`)
    writeFileSync(join(dir, 'window.d.ts'), `interface Window { ethereum: import('edgetrace').Eip1193Provider }\n`)
    const files = [...names.map((n) => join(dir, `${n}.ts`)), join(dir, 'window.d.ts')]
    const program = ts.createProgram(files, {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      paths: distIsFresh()
        ? {
            edgetrace: [join(ROOT, 'dist/node/index.d.ts')],
            'edgetrace/browser': [join(ROOT, 'dist/browser/index.d.ts')],
          }
        : { edgetrace: [join(ROOT, 'src/node/index.ts')], 'edgetrace/browser': [join(ROOT, 'src/browser/index.ts')] },
    })
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file?.fileName.startsWith(dir))
      .map((d) => {
        const at = d.file?.getLineAndCharacterOfPosition(d.start ?? 0)
        return `${d.file?.fileName.slice(dir.length + 1)}:${(at?.line ?? 0) + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`
      })
    expect(diagnostics).toEqual([])
  }, 120_000)
})
