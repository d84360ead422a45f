// npm run otterscan-check [-- --dist DIR] [--direct] [--skip-probe] [--out DIR]: Otterscan, a real
// block explorer nobody here wrote, browsing the embedded devnet through edgetrace. Serves an
// Otterscan build (DIR: the output directory of Otterscan's own `vite build`; default
// tools/otterscan/dist, or $OTTERSCAN_DIST) on loopback, starts the devnet (anvil) behind the fault
// proxy with anvil's own ots_* and trace_* refused, and an edgetrace server in front of that (so every
// ots/trace answer Otterscan gets is edgetrace's); then headless Chromium opens a block page, a
// transaction's overview (internal operations), logs and trace tabs, and an address page (its
// transactions, contract creator), and checks each shows the devnet's data (block number, hashes,
// addresses) and no error banner, and that no JSON-RPC call of the page failed. Screenshots (and
// each page's text) go to --out (default /tmp/otterscan-check/<mode>). Exits 1 on any failure, naming it.
//   --direct      Otterscan talks to anvil itself, no edgetrace (checks the build, config and pages).
//   --skip-probe  a fixed chain id in Otterscan's config, so it skips its start-up probe
//                 (erigon_getHeaderByNumber, ots_getApiLevel) and each page shows its own failures.
// This script does not fetch or build Otterscan: it checks a build it is given.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { type Page, chromium } from 'playwright'
import { startDevnet } from '../src/node/devnet/startDevnet.js'
import { startEdgetrace } from '../src/node/startEdgetrace.js'
import { createProxy } from '../test/src/createProxy.js'
import { rpcResult } from '../test/src/rpc.js'
import { CHROMIUM_ARGS, resolveChromium } from './resolveChromium.js'
import { OFFLINE, serveOtterscan } from './serveOtterscan.js'
import { argFlag } from './argFlag.js'

const dist = resolve(argFlag('dist') ?? process.env.OTTERSCAN_DIST ?? 'tools/otterscan/dist')
const direct = process.argv.includes('--direct')
const skipProbe = process.argv.includes('--skip-probe')
/** One folder per mode, so a run through edgetrace does not overwrite the --direct screenshots. */
const mode = `${direct ? 'direct' : 'edgetrace'}${skipProbe ? '-skip-probe' : ''}`
const outDir = resolve(argFlag('out') ?? join('/tmp/otterscan-check', mode))
/** What Otterscan calls: Erigon's namespaces (erigon_getHeaderByNumber in its probe) and ots/trace. */
const API = ['eth', 'erigon', 'ots', 'trace', 'debug', 'web3', 'net']
/** Longest wait for a page to show its data. */
const PAGE_TIMEOUT_MS = 30_000
/**
 * Otterscan's words when it cannot show a page: its error boundary, its connection panel (a failed
 * start-up probe; "Trying to connect" stays on screen while the probe has not finished), a
 * transaction or block it could not find.
 */
const BANNERS = [
  'Something went wrong',
  'It does not seem to',
  'Trying to connect to Erigon node',
  'not found.',
  'Block not found',
]

if (!existsSync(join(dist, 'index.html'))) {
  console.error(
    `otterscan-check: no Otterscan build at ${dist} (no index.html). Build Otterscan ` +
      '(github.com/otterscan/otterscan, MIT) with its own tools and pass its output directory with --dist DIR ' +
      'or OTTERSCAN_DIST.',
  )
  process.exit(2)
}
mkdirSync(outDir, { recursive: true })

type RpcCall = { method: string; params?: unknown; error?: string }
/**
 * A page, the texts it must show, the JSON-RPC methods it must have called and got an answer from
 * (so a page shown from another source does not pass), and optionally a text to click first (every
 * element with exactly that text).
 */
type PageCheck = { name: string; path: string; expect: string[]; methods: string[]; click?: string }
type PageResult = PageCheck & {
  missing: string[]
  unanswered: string[]
  banners: string[]
  rpcErrors: string[]
  pageErrors: string[]
  calls: RpcCall[]
  screenshot: string
}

const rpc = <result>(url: string, method: string, params: unknown[]): Promise<result> => rpcResult(url, method, params)

/** Every JSON-RPC call the page sends to the node, with its error if it got one. */
function recordCalls(page: Page, nodeUrl: string): RpcCall[] {
  const calls: RpcCall[] = []
  page.on('requestfinished', async (request) => {
    if (request.method() !== 'POST' || !request.url().startsWith(nodeUrl)) return
    type Call = { id?: unknown; method?: string; params?: unknown }
    type Answer = { id?: unknown; error?: { code: number; message: string } }
    let sent: Call[]
    let answers: Answer[]
    try {
      const body = request.postDataJSON() as Call | Call[]
      sent = Array.isArray(body) ? body : [body]
      const response = await request.response()
      const json = (await response?.json()) as Answer | Answer[] | undefined
      answers = json === undefined ? [] : Array.isArray(json) ? json : [json]
    } catch (err) {
      calls.push({ method: '(unreadable request)', error: err instanceof Error ? err.message : String(err) })
      return
    }
    for (const call of sent) {
      const answer = answers.find((a) => a.id === call.id)
      const error = answer?.error ? `${answer.error.code} ${answer.error.message}` : answer ? undefined : 'no answer'
      calls.push({ method: call.method ?? '(no method)', params: call.params, ...(error ? { error } : {}) })
    }
  })
  page.on('requestfailed', (request) => {
    if (!request.url().startsWith(nodeUrl)) return
    const body = request.postDataJSON() as { method?: string } | { method?: string }[] | null
    const methods = (Array.isArray(body) ? body : [body]).map((c) => c?.method ?? '(no method)')
    for (const method of methods) calls.push({ method, error: `request failed: ${request.failure()?.errorText}` })
  })
  return calls
}

/**
 * An eth_call Otterscan makes to learn what an address is (name(), symbol(), decimals() of any
 * contract it shows, ERC-165 and proxy checks): a revert is its answer "not that kind of contract",
 * which Otterscan expects, not a failure.
 */
function isProbe(call: RpcCall): boolean {
  return call.method === 'eth_call' && /revert/i.test(call.error ?? '')
}

/** The page's text as shown (hidden tabs and elements left out). */
async function bodyText(page: Page): Promise<string> {
  return (await page.locator('body').allInnerTexts()).join('\n')
}

async function checkPage(page: Page, origin: string, nodeUrl: string, check: PageCheck): Promise<PageResult> {
  const calls = recordCalls(page, nodeUrl)
  const pageErrors: string[] = []
  page.on('pageerror', (err) => pageErrors.push(err.message))
  await page.goto(`${origin}${check.path}`)
  if (check.click) {
    const targets = page.getByText(check.click, { exact: true })
    await targets
      .first()
      .waitFor({ timeout: PAGE_TIMEOUT_MS / 3 })
      .catch(() => {})
    for (const target of await targets.all()) await target.click().catch(() => {})
  }
  const wanted = check.expect.map((t) => t.toLowerCase())
  let text = ''
  const deadline = Date.now() + PAGE_TIMEOUT_MS
  // Addresses show checksummed and hashes lowercase: compared without case.
  while (Date.now() < deadline) {
    text = (await bodyText(page)).toLowerCase()
    if (wanted.every((t) => text.includes(t))) break
    if (BANNERS.some((b) => b !== 'Trying to connect to Erigon node' && text.includes(b.toLowerCase()))) break
    await page.waitForTimeout(250)
  }
  // Calls still in flight (lazy sections) finish before the page is judged.
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {})
  text = await bodyText(page)
  const lower = text.toLowerCase()
  const file = join(outDir, `${check.name}.png`)
  await page.screenshot({ path: file, fullPage: true })
  writeFileSync(join(outDir, `${check.name}.txt`), text)
  return {
    ...check,
    missing: check.expect.filter((t) => !lower.includes(t.toLowerCase())),
    unanswered: check.methods.filter((m) => !calls.some((c) => c.method === m && !c.error)),
    banners: BANNERS.filter((b) => lower.includes(b.toLowerCase())),
    rpcErrors: calls
      .filter((c) => c.error && !isProbe(c))
      .map((c) => `${c.method} ${JSON.stringify(c.params)}: ${c.error}`),
    pageErrors,
    calls,
    screenshot: file,
  }
}

/** Lines once each, a repeated one with its count (Otterscan retries a failed call several times). */
function counted(lines: string[]): string[] {
  const counts = new Map<string, number>()
  for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1)
  return [...counts].map(([line, n]) => (n > 1 ? `${line} (×${n})` : line))
}

const stops: (() => Promise<void>)[] = []
/** ots_/trace_ calls edgetrace passed on to anvil (refused there): each is an answer edgetrace did not compute. */
let refusedByProxy = () => 0
let failed = false
try {
  console.log(`otterscan-check: ${direct ? 'Otterscan → anvil (--direct)' : 'Otterscan → edgetrace → proxy → anvil'}`)
  const devnet = await startDevnet()
  stops.push(() => devnet.stop())
  const site = await serveOtterscan(dist)
  stops.push(() => site.close())

  let nodeUrl = devnet.anvil.url
  if (!direct) {
    // anvil serves ots_* (level 8) and trace_* itself: refused here, so an answer can only be edgetrace's.
    const proxy = await createProxy(devnet.anvil.url, {
      callError: (call) =>
        /^(ots|trace)_/.test(call.method)
          ? { code: -32601, message: `${call.method} refused by the check's proxy: anvil's own answer is not used` }
          : undefined,
    })
    stops.push(() => proxy.stop())
    refusedByProxy = () => proxy.log.filter((c) => /^(ots|trace)_/.test(c.method)).length
    const edge = await startEdgetrace({
      upstream: proxy.url,
      port: 0,
      hardfork: 'prague',
      api: API,
      corsDomains: [site.origin],
    })
    stops.unshift(() => edge.close())
    nodeUrl = edge.url
  }
  site.configure({
    erigonURL: nodeUrl,
    // Loopback only: 4-byte signatures, chain metadata and Sourcify would otherwise be fetched from
    // the internet. Here they are 404s, which Otterscan does without.
    assetsURLPrefix: `${site.origin}${OFFLINE}assets`,
    sourcify: { sources: { none: { url: `${site.origin}${OFFLINE}sourcify`, backendFormat: 'RepositoryV1' } } },
    chainInfo: {
      name: 'edgetrace devnet',
      faucets: [],
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    },
    branding: { siteName: 'Otterscan (edgetrace check)', hideAnnouncements: true },
    // A fixed chain id is Otterscan's own way to skip its start-up probe (eth_blockNumber,
    // erigon_getHeaderByNumber, ots_getApiLevel ≥ 8): each page then shows its own failures. anvil
    // passes the probe as it is (it answers erigon_getHeaderByNumber and ots_getApiLevel 8).
    ...(skipProbe ? { experimentalFixedChainId: Number(devnet.anvil.chainId) } : {}),
  })

  const tx = (label: string) => {
    const found = devnet.transactions.find((t) => t.label === label)
    if (!found) throw new Error(`no devnet transaction "${label}"`)
    return found
  }
  const alice = devnet.accounts[0]!
  const { Token: token, Scenarios: scenarios } = devnet.contracts as Record<string, string>
  const nested = tx('nested token calls (transferFrom, transfer, balanceOf)')
  const pay = tx('value transfer to an empty account through a contract')
  const several = tx('block of several: recursion')
  const block = await rpc<{ hash: string; transactions: string[] }>(devnet.anvil.url, 'eth_getBlockByNumber', [
    `0x${several.blockNumber.toString(16)}`,
    false,
  ])
  const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
  // Otterscan names an ERC-20 contract by its name() and symbol() instead of its address.
  const TOKEN = 'Edge Token (EDGE)'
  const inBlock = devnet.transactions.filter((t) => t.blockNumber === several.blockNumber).map((t) => t.hash)
  const checks: PageCheck[] = [
    {
      name: 'block',
      path: `/block/${several.blockNumber}`,
      expect: [`#${several.blockNumber}`, block.hash, `${block.transactions.length} transactions in this block`],
      methods: ['ots_getBlockDetails'],
    },
    {
      name: 'block-txs',
      path: `/block/${several.blockNumber}/txs`,
      expect: inBlock,
      methods: ['ots_getBlockTransactions'],
    },
    // Overview: the token transfers section (from the receipt's logs) names the token.
    {
      name: 'tx-overview',
      path: `/tx/${nested.hash}`,
      expect: [nested.hash, alice, scenarios!, TOKEN, 'Success'],
      methods: ['eth_getTransactionByHash', 'eth_getTransactionReceipt', 'ots_getBlockDetails'],
    },
    // Internal operations (ots_getInternalOperations): alice pays Scenarios 1 wei, which pays 0xee…ee.
    {
      name: 'tx-internal-operations',
      path: `/tx/${pay.hash}`,
      expect: [pay.hash, 'TRANSFER', scenarios!, `0x${'ee'.repeat(20)}`, '0.000000000000000001 ETH'],
      methods: ['ots_getInternalOperations'],
    },
    // Two Transfer events; their topics show on each log's Raw tab.
    {
      name: 'tx-logs',
      path: `/tx/${nested.hash}/logs`,
      click: 'Raw',
      expect: ['Logs (2)', TOKEN, TRANSFER],
      methods: ['eth_getTransactionReceipt'],
    },
    // The call tree (ots_traceTransaction): Scenarios.pull calls the token's transferFrom, transfer
    // and (static) balanceOf, each shown by its selector (no 4-byte names offline).
    {
      name: 'tx-trace',
      path: `/tx/${nested.hash}/trace`,
      expect: [alice, scenarios!, TOKEN, '0x23b872dd', '0xa9059cbb', 'staticcall', '0x70a08231'],
      methods: ['ots_traceTransaction'],
    },
    // Transactions touching the token (ots_searchTransactionsBefore) and its creator (ots_getContractCreator).
    {
      name: 'address',
      path: `/address/${token}`,
      expect: [
        token!,
        'Contract creator:',
        alice,
        tx('deploy Token').hash,
        tx('token transfer (legacy, type 0)').hash,
        tx('block of several: token transfer').hash,
      ],
      methods: ['ots_searchTransactionsBefore', 'ots_getContractCreator'],
    },
  ]

  const browser = await chromium.launch({ executablePath: await resolveChromium(), args: CHROMIUM_ARGS })
  stops.unshift(() => browser.close())
  const results: PageResult[] = []
  for (const check of checks) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    results.push(await checkPage(page, site.origin, nodeUrl, check))
    await page.close()
  }

  const failedMethods = new Map<string, Set<string>>()
  for (const r of results) {
    const problems = [
      ...r.missing.map((t) => `missing ${t}`),
      ...r.unanswered.map((m) => `no answered ${m} call`),
      ...r.banners.map((b) => `banner "${b}"`),
      ...counted(r.rpcErrors),
      ...counted(r.pageErrors.map((e) => `page error: ${e}`)),
    ]
    if (problems.length > 0) failed = true
    const probes = r.calls.filter(isProbe).length
    console.log(
      `${problems.length === 0 ? 'ok  ' : 'FAIL'} ${r.name} ${r.path} (${r.calls.length} calls` +
        `${probes ? `, ${probes} eth_call probes reverted as expected` : ''})`,
    )
    for (const p of problems) console.log(`       ${p}`)
    console.log(`       methods: ${[...new Set(r.calls.map((c) => c.method))].sort().join(', ')}`)
    for (const c of r.calls)
      if (c.error && !isProbe(c))
        (failedMethods.get(c.method) ?? failedMethods.set(c.method, new Set()).get(c.method)!).add(c.error)
  }
  if (failedMethods.size > 0) {
    console.log('JSON-RPC methods that failed:')
    for (const [method, errors] of failedMethods) console.log(`  ${method}: ${[...errors].join(' | ')}`)
  }
  if (refusedByProxy() > 0) {
    failed = true
    console.log(`${refusedByProxy()} ots_/trace_ calls reached anvil through edgetrace (refused by the proxy)`)
  }
  console.log(`screenshots and page texts: ${outDir}/*.png, *.txt`)
} catch (err) {
  failed = true
  console.error(`otterscan-check: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
} finally {
  for (const stop of stops) await stop().catch(() => {})
}
process.exit(failed ? 1 : 0)
