import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium } from 'playwright'
import { publint } from 'publint'
import { formatMessage } from 'publint/utils'
import { build as viteBuild } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM_ARGS, resolveChromium } from '../scripts/resolveChromium.js'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import { serveStatic } from '../src/node/serveStatic.js'
import { packTarball } from './src/packTarball.js'
import { DEV_ACCOUNT, rpcResult, waitForReceipt } from './src/rpc.js'

// What is published (issue 35): `npm pack`'s tarball — packed once here (test/src/packTarball.ts:
// the project's dist/ when it is fresh, as on CI after `npm ci`; else built in a staging folder) —
// linted by publint and @arethetypeswrong/cli, then installed with npm in a fresh folder outside the
// project (its dependencies from npm's cache when there, --prefer-offline) and used as the README
// shows: the Node library example, `npx edgetrace --upstream <anvil>`, and the browser library with
// its worker served to a page in Chromium.

const ROOT = resolve(import.meta.dirname, '..')
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const NPX = process.platform === 'win32' ? 'npx.cmd' : 'npx'
const RECIPIENT = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'

let dir: string
let tarball: string
let app: string
let anvil: AnvilInstance
let txHash: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'edgetrace-published-'))
  const started = performance.now()
  let staged: boolean
  ;[{ tarball, staged }, anvil] = await Promise.all([packTarball(dir), startAnvil()])
  const packed = performance.now()
  // The first transactions of a fresh anvil land in block 1, whose parent state (anvil's genesis)
  // cannot be proven: one empty block first, as the README tells users of their own anvil.
  await rpcResult(anvil.url, 'evm_mine')
  txHash = await rpcResult(anvil.url, 'eth_sendTransaction', [{ from: DEV_ACCOUNT, to: RECIPIENT, value: '0x2a' }])
  await waitForReceipt(anvil.url, txHash)
  // A new app installing the tarball as a user would, with viem beside it (the README's example uses it).
  app = join(dir, 'app')
  mkdirSync(app)
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }))
  const viem = JSON.parse(readFileSync(join(ROOT, 'node_modules/viem/package.json'), 'utf8')).version
  const install = spawnSync(
    NPM,
    ['install', tarball, `viem@${viem}`, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel', 'error'],
    { cwd: app, encoding: 'utf8' },
  )
  if (install.status !== 0) throw new Error(`npm install of the tarball failed:\n${install.stdout}${install.stderr}`)
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
  console.info(
    `published: packed in ${seconds(packed - started)} (${staged ? 'built in a staging folder: dist/ is stale' : 'the fresh dist/'}), installed in ${seconds(performance.now() - packed)}`,
  )
}, 600_000)

afterAll(async () => {
  await anvil?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/** The guide's transaction as callTracer shows it: the dev account's 42 wei to RECIPIENT, a plain transfer's gas. */
function expectGuideTrace(trace: unknown) {
  expect(trace).toMatchObject({ type: 'CALL', from: DEV_ACCOUNT, to: RECIPIENT, value: '0x2a', gasUsed: '0x5208' })
}

/** `folder` served on loopback, its index.html opened in Chromium: what the page put in #out (no page error allowed). */
async function showInChromium(folder: string): Promise<Record<string, unknown>> {
  const server = createServer((req, res) => {
    serveStatic(folder, req.url ?? '/', res).then((found) => {
      if (!found) res.writeHead(404).end()
    })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const browser = await chromium.launch({ executablePath: await resolveChromium(), args: CHROMIUM_ARGS })
  try {
    const page = await browser.newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
    await page.waitForFunction(() => document.getElementById('out')?.textContent !== '…', undefined, {
      timeout: 90_000,
    })
    expect(errors).toEqual([])
    return JSON.parse((await page.textContent('#out')) ?? '')
  } finally {
    await browser.close()
    server.close()
  }
}

describe('the packed tarball, linted', () => {
  it('publint finds nothing, suggestions included (strict)', async () => {
    const data = readFileSync(tarball)
    const { messages, pkg } = await publint({
      pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) },
      level: 'suggestion',
      strict: true,
    })
    expect(messages.map((m) => `${m.type}: ${formatMessage(m, pkg) ?? m.code}`)).toEqual([])
  })

  it('@arethetypeswrong/cli finds nothing for an ESM-only package (profile esm-only)', () => {
    // esm-only ignores two resolutions, both on purpose: node10 (TypeScript's deprecated
    // `moduleResolution: node`, which knows no `exports`, so no subpath can resolve under it) and
    // node16 from CommonJS (the package is ESM only — "type": "module", no `require` condition —
    // which a CommonJS consumer reaches through import(); attw calls that "dynamic import only").
    const attw = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules/@arethetypeswrong/cli/dist/index.js'), tarball, '--profile', 'esm-only', '--no-color'],
      { encoding: 'utf8' },
    )
    // Its exit code is non-zero on any problem not ignored; each entry point also resolves, typed, as ESM.
    expect(attw.status, `${attw.stdout}${attw.stderr}`).toBe(0)
    for (const entry of ['edgetrace', 'edgetrace/browser', 'edgetrace/worker', 'edgetrace/service-worker'])
      expect(attw.stdout, entry).toMatch(
        new RegExp(`"${entry}"\\n\\nnode16 \\(from ESM\\): 🟢 \\(ESM\\)\\nbundler: 🟢`),
      )
  })
})

describe('the packed tarball, installed in a fresh folder', () => {
  it('runs the README’s viem guide in Node: createEdgetrace({ upstream, hardfork }), viem custom(), a trace', () => {
    writeFileSync(
      join(app, 'example.mjs'),
      `import { createEdgetrace } from 'edgetrace'
import { createPublicClient, custom } from 'viem'
const edgetrace = await createEdgetrace({ upstream: process.env.UPSTREAM, hardfork: 'prague' })
const client = createPublicClient({ transport: custom(edgetrace) })
const hash = process.env.TX
const receipt = await client.getTransactionReceipt({ hash })
const trace = await edgetrace.trace(hash)
await edgetrace.close()
console.log(JSON.stringify({ status: receipt.status, block: String(receipt.blockNumber), trace }))
`,
    )
    const run = spawnSync(process.execPath, ['example.mjs'], {
      cwd: app,
      encoding: 'utf8',
      env: { ...process.env, UPSTREAM: anvil.url, TX: txHash },
      timeout: 120_000,
    })
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0)
    const shown = JSON.parse(run.stdout.trim().split('\n').pop() ?? '')
    expect(shown.status).toBe('success')
    expect(shown.block).toBe('2')
    expectGuideTrace(shown.trace)
  })

  it('`npx edgetrace --upstream <anvil> --hardfork prague` serves and traces as anvil', async () => {
    // A process group of its own: npx starts the bin as its child, and both are ended together.
    const cli = spawn(NPX, ['edgetrace', '--upstream', anvil.url, '--hardfork', 'prague', '--http.port', '0'], {
      cwd: app,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    try {
      let output = ''
      const url = await new Promise<string>((found, failed) => {
        const timer = setTimeout(() => failed(new Error(`no listening line in 60 s:\n${output}`)), 60_000)
        const onData = (chunk: Buffer) => {
          output += chunk.toString()
          const match = /listening:\s+(http:\/\/\S+)/.exec(output)
          if (match) {
            clearTimeout(timer)
            found(match[1] as string)
          }
        }
        cli.stdout.on('data', onData)
        cli.stderr.on('data', onData)
        cli.once('exit', (code) => failed(new Error(`npx edgetrace exited (${code}):\n${output}`)))
      })
      expect(await rpcResult(url, 'eth_blockNumber')).toBe(await rpcResult(anvil.url, 'eth_blockNumber'))
      const trace = await rpcResult(url, 'debug_traceTransaction', [txHash, { tracer: 'callTracer' }])
      // anvil answers the top frame's gas of a plain transfer as 0x0; geth (and edgetrace) the transaction's gas.
      const { gas: _anvilGas, ...anvilTrace } = await rpcResult(anvil.url, 'debug_traceTransaction', [
        txHash,
        { tracer: 'callTracer' },
      ])
      expect(trace).toEqual({ ...anvilTrace, gas: '0x5208' })
      // A JavaScript tracer runs on a hardened worker thread, started from the package's one-file bundle.
      const tracer =
        '{ fault: function () {}, result: function (ctx) { return [ctx.type, ctx.gasUsed, typeof process] } }'
      expect(await rpcResult(url, 'debug_traceTransaction', [txHash, { tracer }])).toEqual(['CALL', 21000, 'undefined'])
    } finally {
      if (cli.pid !== undefined && cli.exitCode === null) process.kill(-cli.pid, 'SIGTERM')
    }
  })

  it('the README’s viem guide in a page built by Vite: `edgetrace` resolves to the browser build, its worker emitted', async () => {
    // The app's bundler takes the package root under the `browser` condition (dist/browser/index.js)
    // and copies the default worker (edgetrace.worker.js beside it, `new URL(…, import.meta.url)`)
    // into the build as an asset: the built page needs nothing else served.
    const page = join(app, 'page')
    mkdirSync(page)
    writeFileSync(
      join(page, 'index.html'),
      '<!doctype html><meta charset="utf-8"><title>app</title><pre id="out">…</pre><script type="module" src="./main.js"></script>',
    )
    writeFileSync(
      join(page, 'main.js'),
      `import { createEdgetrace } from 'edgetrace'
import { createPublicClient, custom } from 'viem'
try {
  const edgetrace = await createEdgetrace({ upstream: '${anvil.url}', hardfork: 'prague', cache: false })
  const client = createPublicClient({ transport: custom(edgetrace) })
  const hash = '${txHash}'
  const receipt = await client.getTransactionReceipt({ hash })
  const trace = await edgetrace.trace(hash)
  await edgetrace.close()
  document.getElementById('out').textContent = JSON.stringify({ status: receipt.status, trace })
} catch (err) {
  document.getElementById('out').textContent = JSON.stringify({ error: String(err && err.message || err) })
}
`,
    )
    const out = join(page, 'dist')
    await viteBuild({ root: page, configFile: false, logLevel: 'warn', build: { outDir: out, emptyOutDir: true } })
    const assets = readdirSync(join(out, 'assets'))
    expect(
      assets.some((file) => /^edgetrace\.worker-[\w-]+\.js$/.test(file)),
      assets.join(', '),
    ).toBe(true)
    const shown = await showInChromium(out)
    expect(shown.error).toBeUndefined()
    expect(shown.status).toBe('success')
    expectGuideTrace(shown.trace)
  })

  it('serves the installed browser library and its worker to a page: createEdgetrace in Chromium traces', async () => {
    // A page with no bundler: the package's self-contained browser module and, beside it, the worker
    // it starts by default (createEdgetrace with no `worker` option), both from the installed package.
    const browserDir = join(app, 'node_modules/edgetrace/dist/browser')
    writeFileSync(
      join(browserDir, 'index.html'),
      `<!doctype html><meta charset="utf-8"><title>app</title><pre id="out">…</pre>
<script type="module">
  import { createEdgetrace } from './edgetrace.browser.js'
  try {
    const edgetrace = await createEdgetrace({ upstream: '${anvil.url}', hardfork: 'prague', cache: false })
    const trace = await edgetrace.trace('${txHash}')
    await edgetrace.close()
    document.getElementById('out').textContent = JSON.stringify({ trace })
  } catch (err) {
    document.getElementById('out').textContent = JSON.stringify({ error: String(err && err.message || err) })
  }
</script>`,
    )
    const shown = await showInChromium(browserDir)
    expect(shown.error).toBeUndefined()
    expectGuideTrace(shown.trace)
  })
})
