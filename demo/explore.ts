import { decodeCallData, decodeLog, describeRevert } from './abi/signatures.js'
import { type Connection, type Counters, RpcError } from './connection.js'
import { h } from './dom.js'
import { big, eth, grouped, gwei, short } from './format.js'
import type { CallFrame, StateDiff, StepIndex, StructLog } from './traceTypes.js'
import { callLabelParts, renderCallTree } from './views/callTree.js'
import { type LogEntry, renderEvents } from './views/events.js'
import { renderFlameGraph } from './views/flameGraph.js'
import { renderStateDiff } from './views/stateDiff.js'
import { type StorageNames, renderStepper } from './views/stepper.js'
import { type SourcePane, createSourcePane } from './views/sourcePane.js'
import { frameSources } from './source/frameSources.js'
import { lineGasOf } from './source/lineGas.js'
import { failedSteps, functionFlame, namedSlots, pairSourceFrames, sourceEventsFor } from './source/sourceTrace.js'
import type { SourceFrame } from '../src/tracing/render/source/toSourceFrames.js'
import { pageSources } from './pageSources.js'
import { knowsAContract } from './source/knowsAContract.js'
import { withContracts } from '../src/sources/createSourceRegistry.js'
import { sourcifyContracts } from './source/pageSourcify.js'
import { storageContextAt } from './source/stepStorage.js'
import { type TokenOf, amountArgument, callAmounts } from './views/tokenAmounts.js'
import { renderVerification } from './views/verification.js'
import { type TokenInfo, collectMovements, renderWalletPreview } from './views/walletPreview.js'
import type { TransactionsPreview } from './preview/previewTypes.js'
import { renderPreviewSummary, tokensOf } from './preview/renderPreviewSummary.js'

type Block = {
  number: string
  hash: string
  parentHash: string
  stateRoot: string
  timestamp: string
  gasUsed: string
  gasLimit: string
  baseFeePerGas?: string
  miner: string
  transactions: (string | Tx)[]
}
type Tx = {
  hash: string
  from: string
  to: string | null
  value: string
  input: string
  gas: string
  nonce: string
  type: string
  blockNumber: string
  transactionIndex: string
  blockHash: string
  gasPrice?: string
  maxFeePerGas?: string
  maxPriorityFeePerGas?: string
  accessList?: unknown[]
  authorizationList?: unknown[]
}
type Receipt = {
  status: string
  gasUsed: string
  effectiveGasPrice: string
  contractAddress: string | null
  logs: LogEntry[]
  transactionHash: string
}

/** The struct logger's answer: steps, or (with `stepIndex: true`) the index. */
type StepsAnswer = { structLogs: StructLog[]; stepIndex?: StepIndex }

/** The call tree (with logs) and the state diff from one replay: geth's muxTracer runs both. */
const BOTH_TRACERS = {
  tracer: 'muxTracer',
  tracerConfig: { callTracer: { withLog: true }, prestateTracer: { diffMode: true } },
}
type Traces = { callTracer: CallFrame; prestateTracer: StateDiff }

export type CallRequest = { from?: string; to?: string; value?: string; data?: string; gas?: string }

/** Names for addresses the page knows: tokens it looked up, and what the user called. */
export type Names = Map<string, string>

const section = (title: string, id: string, ...body: (Node | string | null)[]) =>
  h('section', { id, class: 'panel' }, h('h2', {}, title), ...body)

async function measure<result>(conn: Connection, work: () => Promise<result>) {
  const before = await conn.counters()
  const started = performance.now()
  const result = await work()
  const elapsedMs = performance.now() - started
  const after = await conn.counters()
  return { result, before, after, elapsedMs }
}

/** Tokens' symbol() and decimals() this page has read, by connection and address: they do not change. */
const tokenCache = new Map<string, Promise<TokenInfo>>()

/**
 * symbol() and decimals() of each token, by verified eth_calls at the block (failures leave them
 * unknown, and are asked again on a later view); each token read once per page and connection.
 */
async function tokenInfo(
  conn: Connection,
  tokens: string[],
  block: string | { blockHash: string },
): Promise<Map<string, TokenInfo>> {
  const out = new Map<string, TokenInfo>()
  await Promise.all(
    tokens.map(async (token) => {
      const key = `${conn.label}|${token.toLowerCase()}`
      let read = tokenCache.get(key)
      if (!read) {
        read = readTokenInfo(conn, token, block)
        tokenCache.set(key, read)
      }
      const info = await read
      if (info.decimals === undefined && info.symbol === undefined) tokenCache.delete(key)
      out.set(token.toLowerCase(), info)
    }),
  )
  return out
}

async function readTokenInfo(conn: Connection, token: string, block: string | { blockHash: string }) {
  const info: TokenInfo = {}
  const call = (data: string) => conn.call<string>('eth_call', [{ to: token, data }, block]).catch(() => undefined)
  const [symbol, decimals] = await Promise.all([call('0x95d89b41'), call('0x313ce567')])
  if (symbol && symbol.length >= 130) {
    const len = Number(BigInt(`0x${symbol.slice(66, 130)}`))
    const bytes = symbol.slice(130, 130 + len * 2).match(/../g) ?? []
    info.symbol = new TextDecoder().decode(Uint8Array.from(bytes, (b) => Number.parseInt(b, 16)))
  }
  if (decimals && decimals.length === 66 && BigInt(decimals) <= 77n) info.decimals = Number(BigInt(decimals))
  return info
}

/**
 * The addresses whose amounts a trace shows as a token's: targets of ERC-20 calls and emitters of
 * Transfer and Approval events (whether they are tokens, decimals() says: an NFT has none).
 */
function tokensIn(trace: CallFrame | undefined, logs: readonly LogEntry[]): string[] {
  const out = new Set<string>()
  const visit = (f: CallFrame) => {
    const decoded = f.to && f.type !== 'DELEGATECALL' ? decodeCallData(f.input) : undefined
    if (f.to && decoded && amountArgument(decoded.signature) !== undefined) out.add(f.to.toLowerCase())
    for (const log of f.logs ?? []) addLog(log)
    for (const c of f.calls ?? []) visit(c)
  }
  const addLog = (log: LogEntry) => {
    const decoded = decodeLog(log.topics, log.data)
    if (decoded && amountArgument(decoded.signature, log.topics) !== undefined) out.add(log.address.toLowerCase())
  }
  if (trace) visit(trace)
  for (const log of logs) addLog(log)
  return [...out]
}

/** The trace views shared by a transaction and a call: call tree, flame graph, events, state diff, stepper, preview. */
async function traceViews(opts: {
  conn: Connection
  trace: CallFrame
  diff: StateDiff
  logs: LogEntry[]
  block: string | { blockHash: string }
  you: string | undefined
  names: Names
  steps: (config: Record<string, unknown>) => Promise<StepsAnswer>
  previewFirst: boolean
  /** The preview panel's content, computed apart (a mined transaction's: edgetrace_previewTransactions); else from the trace's events. */
  preview?: HTMLElement | undefined
  /** Told the top frame at the source level, when the source tracer matched it (the summary's revert line). */
  onSource?: (top: SourceFrame, showFailure: () => void) => void
}): Promise<HTMLElement[]> {
  const nameOf = (a: string) => opts.names.get(a.toLowerCase())
  const movements = collectMovements(opts.trace)
  const tokens = [
    ...new Set([
      ...movements.flatMap((m) => ('token' in m ? [m.token.toLowerCase()] : [])),
      ...tokensIn(opts.trace, opts.logs),
    ]),
  ]
  const info = await tokenInfo(opts.conn, tokens, opts.block)
  for (const [token, i] of info) if (i.symbol && !opts.names.has(token)) opts.names.set(token, i.symbol)
  const tokenOf = (a: string) => info.get(a.toLowerCase())
  const preview = section(
    opts.previewFirst ? 'Wallet preview: what this call would do' : 'What it moved',
    'preview',
    opts.preview ?? renderWalletPreview(movements, info, nameOf, opts.you),
  )
  // The code each frame ran, as the transaction found it (a prestateTracer's accounts; code the
  // transaction itself set, an EIP-7702 delegation it authorized, from the diff's post), asked once a
  // view and only when needed: the stepper's source level, and whether the page's sources know a contract here.
  let prestate: Promise<((address: string) => string | undefined) | undefined> | undefined
  const codes = () =>
    (prestate ??= (opts.steps({ tracer: 'prestateTracer' }) as Promise<unknown>).then(
      (pre) => {
        const accounts = pre as Record<string, { code?: string }>
        return (a: string) => {
          const code = accounts[a]?.code
          return code && code.length > 2 ? code : (opts.diff.post[a]?.code ?? code)
        }
      },
      (err: Error) => {
        console.warn(`the source level needs the code each frame ran (prestateTracer): ${err.message}`)
        return undefined
      },
    ))
  // Whether the daemon's source tracer can match anything here: not a daemon that knows no sources;
  // the in-browser daemon (its sources the page's) only when the page's sources know a contract of
  // the transaction; a server with its own (or that did not say), always.
  const worthTracing = async () => {
    const daemon = opts.conn.sources
    if (daemon === 'none') return false
    if (daemon !== 'page') return true
    if (pageSources.registry.size === 0) return false
    const codeOf = await codes()
    return codeOf ? knowsAContract(opts.trace, pageSources.registry, codeOf) : true
  }
  // edgetrace_sourceTracer, once a view (the stepper's gas per line, and the views below by the
  // contracts' own ABIs and storage layouts); undefined where the daemon has none or gives none, and
  // not asked (a replay of every step) where it could match nothing.
  let sourceTrace: Promise<SourceFrame | undefined> | undefined
  const traced = () =>
    (sourceTrace ??= worthTracing().then((worth) =>
      worth
        ? (opts.steps({ tracer: 'edgetrace_sourceTracer' }) as Promise<unknown>).then(
            (t) => (t && typeof t === 'object' && 'calls' in t ? (t as SourceFrame) : undefined),
            () => undefined,
          )
        : undefined,
    ))
  const stepperHost = h('div', {}, h('p', { class: 'muted' }, 'loading the step index…'))
  /** Where each failed call stopped, once the step index is here. */
  let stopsOf: Map<CallFrame, number> | undefined
  const showFailure = (call: CallFrame) => showStep(stopsOf?.get(call))
  // After the views are drawn: the step index is a replay of its own, not to hold up the call tree.
  new Promise((drawn) => requestAnimationFrame(() => setTimeout(drawn)))
    .then(() => opts.steps({ stepIndex: true, disableStack: true, disableStorage: true }))
    .then((r) => {
      if (!r.stepIndex) throw new Error('this daemon gives no stepIndex (an edgetrace extension)')
      const index = r.stepIndex
      stopsOf = failedSteps(opts.trace, index)
      // The storage column by variable: the variables the source tracer named, by account (the
      // step's storage context, from the step index's frames; the top frame's, the transaction's).
      const top = (opts.trace.to ?? '').toLowerCase()
      const storageNames = traced().then((source): StorageNames | undefined => {
        const slots = source ? namedSlots(opts.trace, pairSourceFrames(opts.trace, source)) : undefined
        if (!slots || slots.size === 0) return undefined
        return (step, depth) => slots.get(storageContextAt(index.frames, step, depth) ?? top)
      })
      return sourceLevel({ ...opts, traced, codes }, index).then((pane) =>
        stepperHost.replaceChildren(
          renderStepper(
            index,
            async (offset, limit) => (await opts.steps({ offset, limit, enableMemory: true })).structLogs,
            pane,
            storageNames,
          ),
        ),
      )
    })
    .catch((err: Error) => stepperHost.replaceChildren(h('p', { class: 'error' }, `opcode stepper: ${err.message}`)))
  const calls = section('Call tree', 'calls', renderCallTree(opts.trace, { nameOf, tokenOf }))
  const flame = section('Gas flame graph', 'flame', renderFlameGraph(opts.trace))
  const events = section(`Events (${opts.logs.length})`, 'events', renderEvents(opts.logs, nameOf, tokenOf))
  const state = section('State diff', 'state', renderStateDiff(opts.diff, nameOf))
  // At the source level, where the daemon matched a contract: each view drawn again with what the
  // source tracer decoded (calls, events and errors by the contract's own ABI, storage by variable,
  // the flame graph by Solidity function). Marked data-source="1" when done, "0" when there is none.
  traced()
    .then((source) => {
      const pairs = source ? pairSourceFrames(opts.trace, source) : new Map()
      if (!source || pairs.size === 0 || ![...pairs.values()].some((f) => f.contract)) {
        for (const s of [calls, flame, events, state]) s.dataset.source = '0'
        return
      }
      const redraw = (s: HTMLElement, body: HTMLElement) => {
        s.lastElementChild?.replaceWith(body)
        s.dataset.source = '1'
      }
      redraw(calls, renderCallTree(opts.trace, { nameOf, tokenOf, source: pairs, showFailure }))
      redraw(flame, renderFlameGraph(opts.trace, functionFlame(source)))
      redraw(events, renderEvents(opts.logs, nameOf, tokenOf, sourceEventsFor(opts.logs, source)))
      redraw(state, renderStateDiff(opts.diff, nameOf, namedSlots(opts.trace, pairs), tokenOf))
      opts.onSource?.(source, () => showFailure(opts.trace))
    })
    .catch((err: Error) => console.warn(`the views at the source level: ${err.message}`))
  return [
    ...(opts.previewFirst ? [preview] : []),
    calls,
    flame,
    events,
    state,
    ...(opts.previewFirst ? [] : [preview]),
    section('Opcode stepper', 'stepper', stepperHost),
  ]
}

/**
 * The stepper's source level, when the page has sources (pageSources): the code each frame ran, as the
 * transaction found it (a prestateTracer's accounts; a contract it created, its creation's output), matched
 * to the page's build outputs. Undefined without sources, or when that cannot be asked (the stepper
 * then shows opcodes only; why is said in the console).
 */
async function sourceLevel(
  opts: {
    conn: Connection
    trace: CallFrame
    diff: StateDiff
    steps: (config: Record<string, unknown>) => Promise<StepsAnswer>
    traced: () => Promise<SourceFrame | undefined>
    codes: () => Promise<((address: string) => string | undefined) | undefined>
  },
  index: StepIndex,
): Promise<((go: (step: number) => void) => SourcePane) | undefined> {
  const sourcify = opts.conn.sourcify
  if ((pageSources.registry.size === 0 && !sourcify) || index.steps === 0) return undefined
  // Gas per line, where the daemon itself has sources for the contracts (edgetrace_sourceTracer):
  // asked beside the code; without it the pane shows lines without gas.
  const traced = opts.traced().then((t) => (t ? lineGasOf(opts.trace, t) : undefined))
  const codeOf = await opts.codes()
  if (!codeOf) return undefined
  // The contracts the page's sources do not know, from the Sourcify server the daemon asks (matched
  // to the code each frame ran, as the daemon matches them).
  const found = sourcify
    ? await opts.conn
        .call<string>('eth_chainId', [])
        .then((id) =>
          sourcifyContracts({
            url: sourcify,
            chainId: BigInt(id),
            tree: opts.trace,
            codeOf,
            registry: pageSources.registry,
          }),
        )
        .catch((err: Error) => {
          console.warn(`sourcify: ${err.message}`)
          return []
        })
    : []
  const registry = withContracts(pageSources.registry, found) ?? pageSources.registry
  const gas = await traced
  const frames = frameSources({
    tree: opts.trace,
    entries: index.frames,
    codeOf,
    registry,
    decode: (input) => decodeCallData(input)?.name,
    ...(gas ? { gas } : {}),
  })
  if (!frames.some((f) => f.locator)) return undefined
  return (go) =>
    createSourcePane({
      total: index.steps,
      frames,
      go,
      fetchSteps: async (offset, limit) =>
        (await opts.steps({ offset, limit, disableStack: true, disableStorage: true })).structLogs,
    })
}

/**
 * Shows a step in the stepper (its "go to"), the source pane then on its statement; the stepper
 * scrolled to. Without a step (the index not here yet), the stepper's next REVERT.
 */
function showStep(step: number | undefined) {
  const stepper = document.querySelector('#stepper')
  stepper?.scrollIntoView()
  const buttons = Array.from(stepper?.querySelectorAll('.step-controls button') ?? [])
  const input = stepper?.querySelector<HTMLInputElement>('.step-controls input[type=number]')
  if (step !== undefined && input) {
    input.value = String(step)
    buttons.find((b) => b.textContent === 'go')?.dispatchEvent(new MouseEvent('click'))
  } else buttons.find((b) => b.textContent?.startsWith('REVERT'))?.dispatchEvent(new MouseEvent('click'))
}

const kv = (rows: [string, Node | string][]) =>
  h(
    'dl',
    { class: 'kv' },
    rows.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]),
  )

const addr = (a: string | null | undefined, names: Names) =>
  a
    ? h('span', { title: a }, names.get(a.toLowerCase()) ? `${names.get(a.toLowerCase())} ` : '', h('code', {}, a))
    : '—'

/**
 * "What it moved", computed as a wallet's preview is: edgetrace_previewTransactions of the transaction
 * as a call from its sender, on the state just before it (its block's parent state and the
 * transactions before it: options.transactionIndex) — balances read before and after by verified
 * calls. Filled in when it arrives (the trace views do not wait); where the daemon cannot say, the
 * transfers and approvals in the trace's events.
 */
function minedPreview(conn: Connection, tx: Tx, names: Names, trace: CallFrame): HTMLElement {
  const host = h(
    'div',
    { class: 'mined-preview' },
    h('p', { class: 'loading' }, 'previewing it on the state before it…'),
  )
  const call: Record<string, unknown> = { from: tx.from, value: tx.value, data: tx.input, gas: tx.gas }
  if (tx.to) call.to = tx.to
  for (const key of ['gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas', 'accessList', 'authorizationList'] as const)
    if (tx[key] !== undefined && !(key === 'gasPrice' && tx.maxFeePerGas !== undefined)) call[key] = tx[key]
  const nameOf = (a: string) => names.get(a.toLowerCase())
  conn
    .call<TransactionsPreview>('edgetrace_previewTransactions', [
      [call],
      { blockHash: tx.blockHash },
      { transactionIndex: Number(big(tx.transactionIndex)), account: tx.from },
    ])
    .then(
      (p) => {
        for (const t of tokensOf(p))
          if (t.symbol && t.standard !== 'native' && !names.has(t.address.toLowerCase()))
            names.set(t.address.toLowerCase(), t.symbol)
        host.replaceChildren(renderPreviewSummary(p, { nameOf, you: tx.from }))
      },
      async (err: Error) => {
        const movements = collectMovements(trace)
        const tokens = [...new Set(movements.flatMap((m) => ('token' in m ? [m.token.toLowerCase()] : [])))]
        const info = await tokenInfo(conn, tokens, { blockHash: tx.blockHash }).catch(() => new Map())
        host.replaceChildren(
          h(
            'p',
            { class: 'error' },
            `edgetrace_previewTransactions: ${err.message} — the transfers in its events instead:`,
          ),
          renderWalletPreview(movements, info, nameOf, tx.from),
        )
      },
    )
  return host
}

/** A mined transaction: everything the page shows for it. */
export async function exploreTransaction(conn: Connection, hash: string, names: Names): Promise<HTMLElement[]> {
  const measured = await measure(conn, async () => {
    // The trace needs only the hash: asked at once, beside the transaction and its receipt.
    const traced = conn.call<Traces>('debug_traceTransaction', [hash, BOTH_TRACERS])
    traced.catch(() => undefined) // a missing transaction is said below, not as the trace's error
    const [tx, receipt] = await Promise.all([
      conn.call<Tx | null>('eth_getTransactionByHash', [hash]),
      conn.call<Receipt | null>('eth_getTransactionReceipt', [hash]),
    ])
    if (!tx || !receipt || tx.blockNumber === null) throw new Error(`no mined transaction ${hash} at this node`)
    // Blocks by hash: what the daemon verified once it can answer again offline, from its cache.
    // The parent's header only (its state root): erigon_getHeaderByHash needs no body, which a
    // browser offline may not have; eth_getBlockByHash where the vendor namespace is not served.
    const blocks = conn.call<Block>('eth_getBlockByHash', [tx.blockHash, false]).then(async (block) => {
      const parent = await conn
        .call<Block>('erigon_getHeaderByHash', [block.parentHash])
        .catch(() => conn.call<Block>('eth_getBlockByHash', [block.parentHash, false]))
      return { block, parent }
    })
    // A trace that fails (its state does not verify) fails that part only: the transaction and its
    // receipt, verified against the block's header, are shown around the error.
    const [traces, { block, parent }] = await Promise.all([
      traced.then(
        (t) => ({ ok: true as const, trace: t.callTracer, diff: t.prestateTracer }),
        (err: Error) => ({ ok: false as const, error: err }),
      ),
      blocks,
    ])
    return { tx, receipt, traces, block, parent }
  })
  const { tx, receipt, traces, block, parent } = measured.result
  const trace = traces.ok ? traces.trace : undefined
  if (!names.has(block.miner.toLowerCase())) names.set(block.miner.toLowerCase(), 'fee recipient')
  const ok = receipt.status === '0x1'
  const fee = big(receipt.gasUsed) * big(receipt.effectiveGasPrice)
  const reason = ok || !trace ? undefined : (trace.revertReason ?? describeRevert(trace.output) ?? trace.error)
  const decoded = tx.to ? decodeCallData(tx.input) : undefined
  // Token amounts in decimals (the call tree's and events' too: read once, cached for the page).
  const tokens = await tokenInfo(conn, tokensIn(trace, receipt.logs), { blockHash: tx.blockHash })
  for (const [token, i] of tokens) if (i.symbol && !names.has(token)) names.set(token, i.symbol)
  const tokenOf = (a: string) => tokens.get(a.toLowerCase())
  const summary = section(
    'Transaction',
    'summary',
    h('p', { class: `status ${ok ? 'ok' : 'failed'}` }, ok ? '✔ success' : `✖ reverted${reason ? `: ${reason}` : ''}`),
    kv([
      ['hash', h('code', {}, tx.hash)],
      [
        'block',
        h(
          'span',
          {},
          h('a', { href: `#/block/${big(tx.blockNumber)}` }, String(big(tx.blockNumber))),
          `, position ${big(tx.transactionIndex)}`,
        ),
      ],
      ['from', addr(tx.from, names)],
      ['to', tx.to ? addr(tx.to, names) : h('span', {}, 'new contract ', addr(receipt.contractAddress, names))],
      [
        'function',
        tx.to
          ? h(
              'span',
              {},
              callLabelParts(decoded, tx.input, (a) => names.get(a), callAmounts(decoded, tx.to, tokenOf)),
            )
          : 'contract creation',
      ],
      ['value', eth(big(tx.value))],
      [
        'gas used',
        `${grouped(big(receipt.gasUsed))} of ${grouped(big(tx.gas))} (${((Number(big(receipt.gasUsed)) / Number(big(tx.gas))) * 100).toFixed(1)}%)`,
      ],
      ['fee', `${eth(fee)} (${grouped(fee)} wei at ${gwei(big(receipt.effectiveGasPrice))})`],
      ['type', `${big(tx.type)}, nonce ${big(tx.nonce)}`],
    ]),
  )
  if (!traces.ok) return [summary, ...unverifiedTrace(conn, receipt, block, traces.error, measured, names, tokenOf)]
  const verification = renderVerification({
    block: { number: big(parent.number), hash: parent.hash, stateRoot: parent.stateRoot },
    what: `the state block ${big(block.number)} started from, replayed up to this transaction`,
    measured,
    source: conn.label,
  })
  const views = await traceViews({
    conn,
    trace: traces.trace,
    diff: traces.diff,
    logs: receipt.logs,
    block: { blockHash: tx.blockHash },
    you: tx.from,
    names,
    steps: (config) => conn.call<StepsAnswer>('debug_traceTransaction', [hash, config]),
    previewFirst: false,
    preview: minedPreview(conn, tx, names, traces.trace),
    // A reverted transaction's summary says the Solidity line it reverted at, a link to its step.
    onSource: (top, show) => {
      if (ok || !top.revert) return
      const { file, line } = top.revert
      summary.querySelector('p.status')?.append(
        h(
          'a',
          {
            class: 'revert-line',
            href: '#stepper',
            onclick: (e: Event) => {
              e.preventDefault()
              show()
            },
          },
          ` at ${file}:${line}`,
        ),
      )
    },
  })
  return [summary, verification, ...views]
}

/**
 * A transaction whose trace failed (e.g. its parent state does not verify: a fresh anvil's block 1):
 * what did verify — its block's header, the transaction and its receipt (status, gas, logs),
 * checked against that header's roots — and the trace's error in a panel of its own where the
 * call tree, state diff and what it moved would be.
 */
function unverifiedTrace(
  conn: Connection,
  receipt: Receipt,
  block: Block,
  error: Error,
  measured: { before: Counters | undefined; after: Counters | undefined; elapsedMs: number },
  names: Names,
  tokenOf: TokenOf,
): HTMLElement[] {
  const nameOf = (a: string) => names.get(a.toLowerCase())
  const events = section(
    `Events (${receipt.logs.length})`,
    'events',
    h('p', { class: 'muted' }, 'from the receipt, checked against the block’s receipts root'),
    renderEvents(receipt.logs, nameOf, tokenOf),
  )
  return [
    renderVerification({
      block: { number: big(block.number), hash: block.hash, stateRoot: block.stateRoot },
      what: `its header; this transaction and its receipt checked against the header's roots — its trace could not be verified (below)`,
      readsState: false,
      measured,
      source: conn.label,
    }),
    section(
      'Trace, state diff and what it moved',
      'trace-failed',
      h('p', { class: 'error' }, error instanceof RpcError ? `${error.method}: ${error.message}` : error.message),
      h(
        'p',
        { class: 'muted' },
        'The replay needs the state this transaction started from, proven against its parent block; the rest of this page does not.',
      ),
    ),
    events,
  ]
}

/** A call the user writes, simulated on the latest block: the wallet preview first. */
export async function exploreCall(conn: Connection, call: CallRequest, names: Names): Promise<HTMLElement[]> {
  const measured = await measure(conn, async () => {
    const head = await conn.call<Block>('eth_getBlockByNumber', ['latest', false])
    const at = head.number
    const { callTracer: trace, prestateTracer: diff } = await conn.call<Traces>('debug_traceCall', [
      call,
      at,
      BOTH_TRACERS,
    ])
    return { head, trace, diff }
  })
  const { head, trace, diff } = measured.result
  const ok = trace.error === undefined
  const reason = ok ? undefined : (trace.revertReason ?? describeRevert(trace.output) ?? trace.error)
  const logs: LogEntry[] = []
  const collect = (f: CallFrame) => {
    if (f.error) return
    for (const log of f.logs ?? []) logs.push(log)
    for (const c of f.calls ?? []) collect(c)
  }
  collect(trace)
  const tokens = await tokenInfo(conn, tokensIn(trace, logs), head.number)
  const tokenOf = (a: string) => tokens.get(a.toLowerCase())
  const calldata = decodeCallData(call.data ?? '0x')
  const summary = section(
    'Simulated call',
    'summary',
    h(
      'p',
      { class: `status ${ok ? 'ok' : 'failed'}` },
      ok ? '✔ would succeed' : `✖ would revert${reason ? `: ${reason}` : ''}`,
    ),
    kv([
      [
        'on top of',
        h('span', {}, 'block ', h('a', { href: `#/block/${big(head.number)}` }, String(big(head.number))), ' (latest)'),
      ],
      ['from', addr(call.from, names)],
      ['to', addr(call.to, names)],
      [
        'function',
        call.to
          ? h(
              'span',
              {},
              callLabelParts(calldata, call.data ?? '0x', (a) => names.get(a), callAmounts(calldata, call.to, tokenOf)),
            )
          : 'contract creation',
      ],
      ['value', eth(big(call.value))],
      ['gas used', grouped(big(trace.gasUsed))],
    ]),
  )
  const verification = renderVerification({
    block: { number: big(head.number), hash: head.hash, stateRoot: head.stateRoot },
    what: 'the call ran on the state after that block',
    measured,
    source: conn.label,
  })
  const views = await traceViews({
    conn,
    trace,
    diff,
    logs,
    block: head.number,
    you: call.from,
    names,
    steps: (config) => conn.call<StepsAnswer>('debug_traceCall', [call, head.number, config]),
    previewFirst: true,
  })
  return [views[0]!, summary, verification, ...views.slice(1)]
}

/** A block: its header and each transaction with status, gas and a link to its trace. */
export async function exploreBlock(conn: Connection, tag: string, names: Names): Promise<HTMLElement[]> {
  const measured = await measure(conn, async () => {
    // The head, asked beside it: the block after the head is not linked to (it does not exist yet).
    const head = conn.call<string>('eth_blockNumber', []).catch(() => undefined)
    const block = await conn.call<Block | null>('eth_getBlockByNumber', [tag, true])
    if (!block) throw new Error(`no block ${tag} at this node`)
    const receipts = await conn.call<Receipt[]>('eth_getBlockReceipts', [block.number])
    return { block, receipts, head: await head }
  })
  const { block, receipts, head } = measured.result
  const number = big(block.number)
  const txs = block.transactions as Tx[]
  const header = section(
    `Block ${number}`,
    'block',
    h(
      'p',
      { class: 'nav' },
      number > 0n ? h('a', { href: `#/block/${number - 1n}` }, `◀ block ${number - 1n}`) : null,
      ' ',
      head !== undefined && number >= big(head)
        ? h('span', { class: 'muted at-head', title: `no block ${number + 1n} yet` }, 'the latest block')
        : h('a', { href: `#/block/${number + 1n}` }, `block ${number + 1n} ▶`),
    ),
    kv([
      ['hash', h('code', {}, block.hash)],
      ['time', new Date(Number(big(block.timestamp)) * 1000).toISOString()],
      ['gas used', `${grouped(big(block.gasUsed))} of ${grouped(big(block.gasLimit))}`],
      ['base fee', block.baseFeePerGas ? gwei(big(block.baseFeePerGas)) : '—'],
      ['state root', h('code', {}, block.stateRoot)],
      // By its address: a name the page gave it on a transaction's view would only repeat the row's ("fee recipient").
      [
        'fee recipient',
        names.get(block.miner.toLowerCase()) === 'fee recipient'
          ? addr(block.miner, new Map())
          : addr(block.miner, names),
      ],
    ]),
    txs.length === 0
      ? h('p', { class: 'muted' }, 'No transactions.')
      : h(
          'table',
          { class: 'block-txs' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['#', 'transaction', 'from', 'to', 'function', 'value', 'gas used', 'status'].map((t) => h('th', {}, t)),
            ),
          ),
          h(
            'tbody',
            {},
            txs.map((tx, i) => {
              const r = receipts[i]
              const ok = r?.status === '0x1'
              return h(
                'tr',
                { class: ok ? '' : 'failed' },
                h('td', {}, i),
                h('td', {}, h('a', { href: `#/tx/${tx.hash}`, class: 'tx-link' }, short(tx.hash, 8))),
                h('td', { title: tx.from }, names.get(tx.from.toLowerCase()) ?? short(tx.from)),
                h(
                  'td',
                  { title: tx.to ?? '' },
                  tx.to ? (names.get(tx.to.toLowerCase()) ?? short(tx.to)) : 'new contract',
                ),
                h(
                  'td',
                  {},
                  tx.to
                    ? (decodeCallData(tx.input)?.name ?? (tx.input === '0x' ? 'transfer' : tx.input.slice(0, 10)))
                    : 'create',
                ),
                h('td', {}, eth(big(tx.value))),
                h('td', {}, r ? grouped(big(r.gasUsed)) : '?'),
                h('td', { class: ok ? 'ok' : 'failed' }, r ? (ok ? '✔ success' : '✖ reverted') : '?'),
              )
            }),
          ),
        ),
  )
  const verification = renderVerification({
    block: { number, hash: block.hash, stateRoot: block.stateRoot },
    what: `header hash checked; ${txs.length} transactions and their receipts checked against the header's roots`,
    readsState: false,
    measured,
    source: conn.label,
  })
  return [header, verification]
}

export type { Counters }
