import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { distIsFresh } from './src/distIsFresh.js'

// The published types as a consumer compiles them (issue 35): the declarations `npm run build`
// writes (tsc -p tsconfig.build.json, emitted here alone into a folder of this test's own, with
// the real package.json beside them) installed as `edgetrace` in a consumer folder, which
// `tsc --strict` with `skipLibCheck: false` must pass — every .d.ts the package's types pull in
// checked, @ethereumjs/mpt's `import type … from 'debug'` included (@types/debug is a dependency).
// Node (lib ES2022, no DOM) imports the package root; a bundler project in the browser
// (customConditions browser) imports the root's browser build and `edgetrace/browser`.

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)))
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc')
// Inside the project's node_modules, so the declarations find the package's dependencies as an install would.
mkdirSync(join(ROOT, 'node_modules/.cache'), { recursive: true })
const dir = mkdtempSync(join(ROOT, 'node_modules/.cache/edgetrace-consumer-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const tsc = (args: string[], cwd = ROOT) => {
  const run = spawnSync(process.execPath, [TSC, ...args], { cwd, encoding: 'utf8' })
  return { status: run.status, output: `${run.stdout}${run.stderr}` }
}

/** A consumer project of its own (its package.json, so `edgetrace` is not this project naming itself). */
function consumer(name: string, compilerOptions: Record<string, unknown>, code: string): string {
  const at = join(dir, name)
  mkdirSync(join(at, 'node_modules'), { recursive: true })
  symlinkSync(join(dir, 'pkg'), join(at, 'node_modules/edgetrace'), 'dir')
  writeFileSync(join(at, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }))
  const options = { strict: true, skipLibCheck: false, target: 'ES2022', noEmit: true, ...compilerOptions }
  writeFileSync(join(at, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, files: ['index.ts'] }))
  writeFileSync(join(at, 'index.ts'), code)
  return at
}

beforeAll(() => {
  // dist/'s declarations where they are what `npm run build` writes now (CI: `npm ci` built them),
  // else emitted here (~30 s), whatever the type check says of files elsewhere: the consumer's check is the test.
  mkdirSync(join(dir, 'pkg'), { recursive: true })
  if (distIsFresh()) symlinkSync(join(ROOT, 'dist'), join(dir, 'pkg/dist'), 'dir')
  else {
    tsc([
      '-p',
      'tsconfig.build.json',
      '--emitDeclarationOnly',
      '--sourceMap',
      'false',
      '--outDir',
      join(dir, 'pkg/dist'),
    ])
  }
  copyFileSync(join(ROOT, 'package.json'), join(dir, 'pkg/package.json'))
}, 300_000)

describe('the published types under a consumer’s tsc --strict, skipLibCheck false', () => {
  it('Node: the package root’s createEdgetrace, startEdgetrace, createUpstream, the provider and error classes', () => {
    expect(existsSync(join(dir, 'pkg/dist/node/index.d.ts'))).toBe(true)
    const at = consumer(
      'node-consumer',
      { module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022'], types: ['node'] },
      `import {
  type CreateEdgetraceOptions,
  type EdgetraceProvider,
  type Eip1193Provider,
  ProviderRpcError,
  UpstreamUnavailableError,
  createEdgetrace,
  createUpstream,
  startEdgetrace,
} from 'edgetrace'

declare const wallet: Eip1193Provider
const options: CreateEdgetraceOptions = {
  upstream: ['https://a.example', wallet, createUpstream({ url: 'wss://b.example', retries: 1 })],
  hardfork: 'prague',
}
export async function main(): Promise<void> {
  const edgetrace: EdgetraceProvider = await createEdgetrace(options)
  const tree = await edgetrace.trace('0x00', { tracerConfig: { withLog: true } })
  const preview = await edgetrace.previewTransactions([{ to: '0x00', value: '0x1' }], { account: '0x00' })
  try {
    await edgetrace.request({ method: 'eth_blockNumber' })
  } catch (err) {
    if (err instanceof ProviderRpcError) console.log(err.code, err.data)
    if (err instanceof UpstreamUnavailableError) console.log(err.status)
  }
  const server = await startEdgetrace({ upstream: 'http://127.0.0.1:8545', port: 0 })
  console.log(tree.calls?.length, preview.assetChanges.length, server.url)
  // @ts-expect-error: an upstream is a URL, a provider or a list of them
  await createEdgetrace({ upstream: 42 })
}
`,
    )
    const { status, output } = tsc(['-p', '.'], at)
    expect(output).toBe('')
    expect(status).toBe(0)
  })

  it('browser (a bundler, customConditions browser): the root’s browser build and edgetrace/browser', () => {
    const at = consumer(
      'browser-consumer',
      {
        module: 'ESNext',
        moduleResolution: 'Bundler',
        customConditions: ['browser'],
        lib: ['ES2022', 'DOM'],
        types: [],
      },
      `import { type EdgetraceProvider, createEdgetrace } from 'edgetrace'
import { connectEdgetraceWorker, createEip1193Provider } from 'edgetrace/browser'

declare const ethereum: { request(args: { method: string; params?: unknown[] }): Promise<unknown> }
export async function main(): Promise<void> {
  const edgetrace: EdgetraceProvider = await createEdgetrace({
    upstream: [ethereum, 'https://a.example'],
    worker: '/edgetrace.worker.js',
    cache: false,
  })
  const tree = await edgetrace.trace('0x00')
  const client = await connectEdgetraceWorker(new Worker('/edgetrace.worker.js'), { upstream: 'https://a.example' })
  console.log(tree.gasUsed, createEip1193Provider(client))
}
`,
    )
    const { status, output } = tsc(['-p', '.'], at)
    expect(output).toBe('')
    expect(status).toBe(0)
  })
})
