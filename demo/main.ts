import { encodeStatic, parseAmount } from './abi/decodeAbi.js'
import { parseSignature } from './abi/signatures.js'
import {
  type Connection,
  type DaemonSources,
  RpcError,
  createBrowserConnection,
  createServerConnection,
} from './connection.js'
import { fill, h } from './dom.js'
import { type CallRequest, type Names, exploreBlock, exploreCall, exploreTransaction } from './explore.js'
import { type TrustReport, renderTrustPanel } from './views/trustPanel.js'
import { eip2612PermitTypes } from './preview/eip2612PermitTypes.js'
import { explorePreview } from './preview/explorePreview.js'
import { parsePreviewInput } from './preview/parsePreviewInput.js'
import { big } from './format.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import type { NamedSourceFile } from '../src/sources/readSourceFiles.js'
import { droppedFiles, pageSources, pickedFiles } from './pageSources.js'

// The trace explorer: a hash, a block number or a call the user writes → what it did, on state
// verified against the block, answered by an edgetrace server (the one serving this page) or by
// the daemon in this page's worker reading any node.

type ExplorerInfo = {
  devnet?: boolean
  upstream?: string
  /** The devnet's beacon node (`--devnet.beacon`): prefilled as the in-browser daemon's. */
  beacon?: string
  /** The devnet beacon chain's first root, which the server's daemon starts from (a pin of an earlier devnet's is replaced by it). */
  beaconCheckpoint?: string
  hardfork?: string
  /** Build outputs the server gives for source-level debugging (the devnet's contracts): URLs relative to the page. */
  sources?: string[]
  /** What the server's own source tracer knows: how many contracts (`--sources`, the devnet's) and whether it asks Sourcify. */
  sourceTracer?: { contracts: number; sourcify: boolean; sourcifyUrl?: string }
  accounts?: string[]
  contracts?: Record<string, string>
  transactions?: { label: string; hash: string; blockNumber: number; status: string }[]
}

const $ = <element extends HTMLElement>(id: string) => document.getElementById(id) as element
const content = $<HTMLElement>('content')
const connStatus = $<HTMLElement>('conn-status')
const mode = $<HTMLSelectElement>('mode')
const url = $<HTMLInputElement>('url')
const hardfork = $<HTMLInputElement>('hardfork')
const beacon = $<HTMLInputElement>('beacon')
const checkpoint = $<HTMLInputElement>('checkpoint')
const search = $<HTMLInputElement>('search')

const names: Names = new Map()
let info: ExplorerInfo = {}
let connection: Promise<Connection> | undefined
let connectionKey = ''
/** Counts the connections started: an answer of an earlier one is not shown. */
let connections = 0
let lastCall: CallRequest | undefined
let lastPreview: string | undefined
const timings: { last?: { answersAndBuildMs: number; drawMs: number } } = {}

const saved = (key: string) => localStorage.getItem(`edgetrace.explorer.${key}`)
const save = (key: string, value: string) => localStorage.setItem(`edgetrace.explorer.${key}`, value)
/**
 * A field's remembered value, or null. One still as the serving page suggested it follows what the
 * page suggests now: a devnet's node and beacon node get new ports each start.
 */
function remembered(key: string, suggestion: string | undefined): string | null {
  const value = saved(key)
  return value !== null && suggestion !== undefined && value === saved(`${key}.suggested`) ? suggestion : value
}
function remember(key: string, value: string, suggestion: string | undefined) {
  save(key, value)
  save(`${key}.suggested`, suggestion ?? '')
}
/** The in-browser daemon's node URL: remembered, else the devnet's anvil, else a local node. */
const browserUrl = () => remembered('url.browser', info.upstream) ?? info.upstream ?? 'http://127.0.0.1:8545'

function connect(): Promise<Connection> {
  const browser = mode.value === 'browser'
  const key = `${mode.value}|${url.value}|${hardfork.value}${browser ? `|${beacon.value}|${checkpoint.value}|${pageSources.version}` : ''}`
  if (connection && key === connectionKey) return connection
  void connection?.then((c) => c.close()).catch(() => undefined)
  connectionKey = key
  connections++
  save('mode', mode.value)
  if (browser) {
    remember('url.browser', url.value, info.upstream)
    remember('beacon', beacon.value, info.beacon)
    save('checkpoint', checkpoint.value)
  } else save(`url.${mode.value}`, url.value)
  save('hardfork', hardfork.value)
  const beaconNode = beacon.value.trim()
  fill(
    connStatus,
    browser ? `starting edgetrace in this browser${beaconNode ? `, its light client of ${beaconNode}` : ''}…` : '',
  )
  connection = !browser
    ? Promise.resolve(createServerConnection(url.value.trim(), serverSources(url.value.trim())))
    : !beaconNode && checkpoint.value.trim()
      ? Promise.reject(
          new Error(
            'checkpoint: a beacon block root, checked by a light client of a beacon node — give the beacon node too',
          ),
        )
      : startInBrowser(url.value.trim(), hardfork.value.trim() || undefined, beaconNode, checkpoint.value.trim())
  connection.then(
    (c) => fill(connStatus, `answered by ${c.label}`),
    (err: Error) => {
      const which = browser && beaconNode ? ` (beacon node ${beaconNode})` : ''
      fill(
        connStatus,
        h('span', { class: 'error start-error' }, `could not start${which}: ${inPageWords(err.message)}`),
      )
      connection = undefined
    },
  )
  return connection
}

/**
 * What the server at `address` said of its source tracer: only the server that serves this page
 * (its explorer.json's `sourceTracer`: what it knows, the Sourcify server it asks); nothing for another.
 */
function serverSources(address: string): { sources?: DaemonSources; sourcify?: string } {
  const said = info.sourceTracer
  if (!said) return {}
  let origin: string
  try {
    origin = new URL(address, location.href).origin
  } catch {
    return {}
  }
  if (origin !== location.origin) return {}
  return {
    sources: said.contracts > 0 || said.sourcify ? 'own' : 'none',
    ...(said.sourcifyUrl ? { sourcify: said.sourcifyUrl } : {}),
  }
}

/** The daemon in this page's worker, anchored by the beacon node when one is given. */
async function startInBrowser(
  node: string,
  fork: string | undefined,
  beaconNode: string,
  root: string,
): Promise<Connection> {
  const beaconConfig = beaconNode ? { url: beaconNode, checkpoint: root || undefined } : undefined
  return createBrowserConnection(node, fork, beaconConfig, pageSources.files)
}

/** A start error in the page's words: the worker's config fields are this page's inputs. */
const inPageWords = (message: string) =>
  message.replaceAll('config.beacon.checkpoint', 'checkpoint').replaceAll('config.beacon.url', 'beacon node')

/** The trust panel: which block is real, as the daemon answering says; asked on each view and every 12 s. */
async function showTrust() {
  const asked = connect()
  // An answer of a connection the form has since replaced (a refresh still in flight) is not shown.
  const generation = connections
  const current = () => connections === generation
  try {
    const c = await asked
    const report = await c.call<TrustReport>('edgetrace_trust', [])
    if (current()) $('trust').replaceWith(renderTrustPanel(report, undefined, c.kind))
  } catch (err) {
    if (current())
      $('trust').replaceWith(
        renderTrustPanel(undefined, err instanceof RpcError ? err.message : (err as Error).message),
      )
  }
}

function syncModeFields() {
  const browser = mode.value === 'browser'
  $('hardfork-field').hidden = !browser
  $('beacon-field').hidden = !browser
  $('checkpoint-field').hidden = !browser
  $('url-label').textContent = browser ? 'node URL (any JSON-RPC node with eth_getProof)' : 'edgetrace server'
}

async function show(title: string, work: (c: Connection) => Promise<HTMLElement[]>) {
  document.title = `${title} — edgetrace`
  fill(content, h('p', { class: 'loading' }, `${title}: tracing…`))
  try {
    const c = await connect()
    const started = performance.now()
    const parts = await work(c)
    const built = performance.now()
    fill(content, parts)
    // Where the time went (for the console and the benchmark): answers and building, then drawing.
    // (a task queued from the next animation frame runs once that frame is laid out and painted)
    requestAnimationFrame(() =>
      setTimeout(() => {
        timings.last = { answersAndBuildMs: built - started, drawMs: performance.now() - built }
      }),
    )
    await c.flush().catch(() => undefined)
  } catch (err) {
    const message = err instanceof RpcError ? `${err.method}: ${err.message}` : (err as Error).message
    fill(content, h('section', { class: 'panel' }, h('h2', {}, title), h('p', { class: 'error' }, message)))
  }
}

function home() {
  document.title = 'edgetrace — trace explorer'
  const txs = info.transactions ?? []
  fill(
    content,
    h(
      'section',
      { class: 'panel intro' },
      h('h2', {}, 'Trace any transaction, on state proven against the block'),
      h(
        'p',
        {},
        'Paste a transaction hash or a block number above, or ',
        h('a', { href: '#/call' }, 'simulate a call'),
        ', or ',
        h('a', { href: '#/preview', id: 'home-preview' }, 'preview a transaction or typed data'),
        ' as a wallet would before signing. Every account, slot and code the replay touches is checked with Merkle proofs against the block header.',
      ),
    ),
    txs.length > 0
      ? h(
          'section',
          { class: 'panel' },
          h('h2', {}, 'Demo transactions on the embedded devnet'),
          h(
            'table',
            { class: 'demo-txs' },
            h(
              'tbody',
              {},
              txs.map((tx) =>
                h(
                  'tr',
                  { class: tx.status === 'success' ? '' : 'failed' },
                  h('td', {}, h('a', { href: `#/tx/${tx.hash}`, class: 'demo-tx' }, tx.label)),
                  h('td', {}, h('a', { href: `#/block/${tx.blockNumber}` }, `block ${tx.blockNumber}`)),
                  h('td', {}, tx.status === 'success' ? '✔' : '✖ reverted'),
                ),
              ),
            ),
          ),
        )
      : h('p', {}, h('a', { href: '#/block/latest' }, 'Show the latest block')),
  )
}

function callForm() {
  document.title = 'Simulate a call — edgetrace'
  const [alice, bob] = info.accounts ?? []
  const token = info.contracts?.Token
  const field = (id: string, label: string, value: string, placeholder = '') =>
    h('label', { for: id }, label, h('input', { id, value, placeholder }))
  const previous = lastCall
  const form = h(
    'form',
    { id: 'call-form', class: 'panel' },
    h('h2', {}, 'Simulate a call'),
    h('p', { class: 'muted' }, 'Runs on the latest block without sending anything: the trace, and what it would move.'),
    field('call-from', 'from', previous?.from ?? alice ?? '', '0x… (the signer)'),
    field('call-to', 'to', previous?.to ?? token ?? '', '0x… (empty: create a contract)'),
    field('call-value', 'value', previous?.value ? `${big(previous.value)} wei` : '0 ether', 'e.g. 0.5 ether'),
    field(
      'call-fn',
      'function',
      previous ? '' : token ? 'transfer(address,uint256)' : '',
      'e.g. transfer(address,uint256)',
    ),
    field(
      'call-args',
      'arguments (comma-separated; amounts may say ether or gwei)',
      previous ? '' : bob ? `${bob}, 5 ether` : '',
    ),
    field('call-data', 'or calldata (hex, used when no function is given)', previous?.data ?? '', '0x…'),
    h('button', { type: 'submit' }, 'Simulate'),
    h('p', { id: 'call-error', class: 'error' }),
  )
  const results = h('div', { id: 'call-results' })
  form.addEventListener('submit', (e) => {
    e.preventDefault()
    const value = (id: string) => (document.getElementById(id) as HTMLInputElement).value.trim()
    try {
      const call: CallRequest = {}
      if (value('call-from')) call.from = value('call-from')
      if (value('call-to')) call.to = value('call-to')
      const wei = parseAmount(value('call-value') || '0')
      if (wei > 0n) call.value = `0x${wei.toString(16)}`
      if (value('call-fn')) {
        const item = parseSignature(`function ${value('call-fn')}`)
        const args = value('call-args') ? value('call-args').split(',') : []
        const selector = Array.from(keccak_256(new TextEncoder().encode(item.signature)).slice(0, 4), (b) =>
          b.toString(16).padStart(2, '0'),
        ).join('')
        call.data = `0x${selector}${encodeStatic(
          item.params.map((p) => p.type),
          args,
        )}`
      } else if (value('call-data')) call.data = value('call-data')
      lastCall = call
      fill($('call-error'))
      fill(results, h('p', { class: 'loading' }, 'simulating…'))
      connect()
        .then((c) => exploreCall(c, call, names))
        .then(
          (parts) => fill(results, parts),
          (err: Error) =>
            fill(
              results,
              h('p', { class: 'error' }, err instanceof RpcError ? `${err.method}: ${err.message}` : err.message),
            ),
        )
    } catch (err) {
      fill($('call-error'), (err as Error).message)
    }
  })
  fill(content, form, results)
}

/** Examples for the preview page on the devnet: alice's token transfer to bob, an unlimited approval, a permit. */
function previewExamples(): { label: string; text: string }[] {
  const [alice, bob] = info.accounts ?? []
  const token = info.contracts?.Token
  if (!alice || !bob || !token) return []
  const word = (a: string) => a.toLowerCase().replace(/^0x/, '').padStart(64, '0')
  const max = 'f'.repeat(64)
  const fiveTokens = (5n * 10n ** 18n).toString(16).padStart(64, '0')
  const permit = {
    types: eip2612PermitTypes(),
    primaryType: 'Permit',
    domain: { name: 'Edge Token', version: '1', chainId: 31337, verifyingContract: token },
    message: { owner: alice, spender: bob, value: '5000000000000000000', nonce: '0', deadline: '4102444800' },
  }
  const json = (v: unknown) => JSON.stringify(v, null, 2)
  return [
    {
      label: 'a token transfer',
      text: json({ from: alice, to: token, data: `0xa9059cbb${word(bob)}${fiveTokens}` }),
    },
    { label: 'an unlimited approval', text: json({ from: alice, to: token, data: `0x095ea7b3${word(bob)}${max}` }) },
    {
      label: 'approve, then send ether (wallet_sendCalls)',
      text: json({
        version: '2.0.0',
        from: alice,
        calls: [
          { to: token, data: `0x095ea7b3${word(bob)}${fiveTokens}` },
          { to: bob, value: '0xde0b6b3a7640000' },
        ],
      }),
    },
    { label: 'typed data: a permit', text: json({ account: alice, typedData: permit }) },
  ]
}

function previewForm() {
  document.title = 'Preview before signing — edgetrace'
  const examples = previewExamples()
  const input = h('textarea', {
    id: 'preview-input',
    rows: 12,
    spellcheck: 'false',
    placeholder:
      '{"from": "0x…", "to": "0x…", "value": "0x…", "data": "0x…"}\n— or a list of calls, wallet_sendCalls\' {"from", "calls": […]},\n— or typed data: {"account": "0x…", "typedData": {…}} or eth_signTypedData_v4\'s ["0x…", {…}]',
  })
  input.value = lastPreview ?? examples[0]?.text ?? ''
  const results = h('div', { id: 'preview-results' })
  const error = h('p', { id: 'preview-error', class: 'error' })
  const form = h(
    'form',
    { id: 'preview-form', class: 'panel' },
    h('h2', {}, 'Preview before signing'),
    h(
      'p',
      { class: 'muted' },
      'Paste what a dapp asks your wallet to sign: a transaction, a list of calls, or EIP-712 typed data. ',
      'It runs on the latest block’s verified state, here, without sending anything: what would move, what it approves, and what to worry about.',
    ),
    examples.length > 0
      ? h(
          'p',
          { class: 'examples' },
          'Examples on the devnet: ',
          examples.map((e, i) => [
            i > 0 ? ' · ' : '',
            h(
              'button',
              {
                type: 'button',
                class: 'example',
                onclick: () => {
                  input.value = e.text
                },
              },
              e.label,
            ),
          ]),
        )
      : null,
    input,
    h('p', {}, h('button', { type: 'submit' }, 'Preview')),
    error,
  )
  form.addEventListener('submit', (e) => {
    e.preventDefault()
    lastPreview = input.value
    fill(error)
    let parsed: ReturnType<typeof parsePreviewInput>
    try {
      parsed = parsePreviewInput(input.value)
    } catch (err) {
      fill(error, `Cannot preview this: ${(err as Error).message}`)
      fill(results)
      return
    }
    fill(results, h('p', { class: 'loading' }, 'previewing…'))
    connect()
      .then((c) => explorePreview(c, parsed, names))
      .then(
        (parts) => fill(results, parts),
        (err: Error) =>
          fill(
            results,
            h(
              'section',
              { class: 'panel', id: 'preview-failed' },
              h('h2', {}, 'Cannot preview this'),
              h(
                'p',
                { class: 'error' },
                err instanceof RpcError ? `${err.method} refused it: ${err.message}` : err.message,
              ),
            ),
          ),
      )
  })
  fill(content, form, results)
}

function route() {
  void showTrust()
  const hash = location.hash.replace(/^#\/?/, '')
  const [kind, arg] = hash.split('/')
  if (kind === 'tx' && arg) {
    search.value = arg
    void show(`Transaction ${arg.slice(0, 10)}…`, (c) => exploreTransaction(c, arg, names))
  } else if (kind === 'block' && arg) {
    search.value = arg
    const tag = /^\d+$/.test(arg) ? `0x${BigInt(arg).toString(16)}` : arg
    void show(`Block ${arg}`, (c) => exploreBlock(c, tag, names))
  } else {
    // Views with no subject: the search box does not keep an earlier view's.
    search.value = ''
    if (kind === 'call') callForm()
    else if (kind === 'preview') previewForm()
    else home()
  }
}

$<HTMLFormElement>('search-form').addEventListener('submit', (e) => {
  e.preventDefault()
  const q = search.value.trim()
  if (/^0x[0-9a-fA-F]{64}$/.test(q)) location.hash = `#/tx/${q.toLowerCase()}`
  else if (/^(\d+|latest|safe|finalized|earliest)$/.test(q)) location.hash = `#/block/${q}`
  else if (/^0x[0-9a-fA-F]+$/.test(q)) askHexNumber(q)
  else
    fill(
      content,
      h('p', { class: 'error' }, `"${q}" is neither a transaction hash (0x and 64 hex digits) nor a block number`),
    )
})
/**
 * Hex that is not a whole hash (64 digits): a block number in hex, or a hash cut short — asked, not
 * guessed (a hash's first digits read as a number would show some unrelated block).
 */
function askHexNumber(q: string) {
  const number = BigInt(q)
  fill(
    content,
    h(
      'section',
      { class: 'panel', id: 'search-question' },
      h('h2', {}, `${q}: a block number (${number}), or a partial hash?`),
      h(
        'p',
        {},
        h('a', { href: `#/block/${number}`, id: 'search-as-block' }, `block ${number}`),
        ` — or, for a transaction, its whole hash: 0x and 64 hex digits (this has ${q.length - 2}).`,
      ),
    ),
  )
}
/** Says what the page's sources hold, and what the last files given could not be read as. */
function showSources(note?: Node | string) {
  const status = $<HTMLElement>('sources-status')
  fill(
    status,
    pageSources.registry.size === 0
      ? 'sources: none — add a build output (solc standard JSON, Foundry out/, Hardhat build-info) to step by Solidity line'
      : `sources: ${pageSources.registry.size} contracts (${pageSources.origins.join('; ')})`,
    note ? h('span', { class: 'sources-note' }, ' · ', note) : null,
  )
}

/** Reads given files into the page's sources and shows the view again with them. */
async function addSources(files: Promise<NamedSourceFile[]>, origin: string) {
  try {
    const list = await files
    const { contracts, added, unread } = pageSources.add(list, origin)
    const skipped = unread.length
      ? ` — not read: ${unread
          .slice(0, 3)
          .map((u) => `${u.name} (${u.why})`)
          .join(', ')}${unread.length > 3 ? `, and ${unread.length - 3} more` : ''}`
      : ''
    showSources(
      h(
        'span',
        { class: contracts === 0 ? 'error' : '' },
        `${origin}: ${contracts} contracts from ${list.length} ${list.length === 1 ? 'file' : 'files'}${contracts > added ? ` (${contracts - added} already known)` : ''}${skipped}`,
      ),
    )
    if (added > 0) route()
  } catch (err) {
    showSources(h('span', { class: 'error' }, `could not read ${origin}: ${(err as Error).message}`))
  }
}
const filesInput = $<HTMLInputElement>('sources-files')
const folderInput = $<HTMLInputElement>('sources-folder')
$('sources-add-files').addEventListener('click', () => filesInput.click())
$('sources-add-folder').addEventListener('click', () => folderInput.click())
for (const input of [filesInput, folderInput])
  input.addEventListener('change', () => {
    if (input.files?.length) void addSources(pickedFiles(input.files), input === folderInput ? 'a folder' : 'files')
    input.value = ''
  })
const hasFiles = (e: DragEvent) => e.dataTransfer?.types.includes('Files') === true
document.addEventListener('dragover', (e) => {
  if (!hasFiles(e)) return
  e.preventDefault()
  document.body.classList.add('dropping')
})
document.addEventListener('dragleave', (e) => {
  if (e.relatedTarget === null) document.body.classList.remove('dropping')
})
document.addEventListener('drop', (e) => {
  document.body.classList.remove('dropping')
  if (!hasFiles(e) || !e.dataTransfer) return
  e.preventDefault()
  void addSources(droppedFiles(e.dataTransfer.items), 'dropped files')
})

$<HTMLFormElement>('conn-form').addEventListener('submit', (e) => {
  e.preventDefault()
  connectionKey = ''
  route()
})
mode.addEventListener('change', () => {
  url.value = mode.value === 'browser' ? browserUrl() : (saved(`url.${mode.value}`) ?? defaultServer())
  if (mode.value === 'browser' && !hardfork.value && info.hardfork) hardfork.value = info.hardfork
  syncModeFields()
})
window.addEventListener('hashchange', route)

const defaultServer = () => (location.protocol.startsWith('http') ? location.origin : 'http://127.0.0.1:8545')

async function start() {
  // Served by an edgetrace server: it says what the devnet has (names for its contracts).
  info = await fetch('explorer.json')
    .then((r) => (r.ok && r.headers.get('content-type')?.includes('json') ? (r.json() as Promise<ExplorerInfo>) : {}))
    .catch(() => ({}))
  for (const [name, address] of Object.entries(info.contracts ?? {})) names.set(address.toLowerCase(), name)
  await Promise.all(
    (info.sources ?? []).map(async (u) => {
      const res = await fetch(u).catch(() => undefined)
      if (res?.ok) pageSources.add([{ name: u, text: await res.text() }], info.devnet ? 'the devnet' : u)
    }),
  )
  showSources()
  for (const [i, account] of (info.accounts ?? []).entries())
    names.set(account.toLowerCase(), ['alice', 'bob', 'carol'][i] ?? account)
  mode.value = saved('mode') ?? 'server'
  url.value = mode.value === 'browser' ? browserUrl() : (saved(`url.${mode.value}`) ?? defaultServer())
  hardfork.value = saved('hardfork') ?? info.hardfork ?? ''
  beacon.value = remembered('beacon', info.beacon) ?? info.beacon ?? ''
  checkpoint.value = saved('checkpoint') ?? ''
  syncModeFields()
  route()
  setInterval(() => {
    if (document.visibilityState === 'visible') void showTrust()
  }, 12_000)
}
// For the console (and tests): the page's connection, to send any JSON-RPC call the same way, and
// the last view's timings.
;(globalThis as { edgetraceExplorer?: unknown }).edgetraceExplorer = { connect, timings }
void start()
