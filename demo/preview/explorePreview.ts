import type { Connection } from '../connection.js'
import { h } from '../dom.js'
import type { CallRequest, Names } from '../explore.js'
import type { CallFrame } from '../traceTypes.js'
import { renderCallTree } from '../views/callTree.js'
import type { TokenOf } from '../views/tokenAmounts.js'
import type { PreviewInput } from './parsePreviewInput.js'
import type { TransactionsPreview, TypedDataPreview } from './previewTypes.js'
import { renderPreviewCalls, renderPreviewSummary, tokensOf } from './renderPreviewSummary.js'
import { renderTypedDataPreview } from './renderTypedDataPreview.js'

const section = (title: string, id: string, ...body: (Node | string | null)[]) =>
  h('section', { id, class: 'panel' }, h('h2', {}, title), ...body)

/** The fee fields a preview runs without (its gas is said apart): the trace runs the calls as the preview did. */
const FEES = ['gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas'] as const

/** A simulated block's time after its parent's (eth_simulateV1's default, which the preview's calls run with). */
const SIMULATED_BLOCK_SECONDS = 12n

/**
 * The call trees of the previewed calls, on the state of the block the preview ran on:
 * debug_traceCallMany with callTracer, one bundle in order, so that each call sees the state the
 * earlier ones left; in the block the preview's calls ran in (the next number, 12 s later).
 */
async function traceCalls(conn: Connection, calls: CallRequest[], block: string): Promise<CallFrame[]> {
  const transactions = calls.map((c) => {
    const out: Record<string, unknown> = { ...c }
    for (const key of FEES) delete out[key]
    return out
  })
  const header = await conn.call<{ timestamp: string }>('eth_getBlockByNumber', [block, false])
  const blockOverride = {
    blockNumber: `0x${(BigInt(block) + 1n).toString(16)}`,
    timestamp: `0x${(BigInt(header.timestamp) + SIMULATED_BLOCK_SECONDS).toString(16)}`,
  }
  const [bundle] = await conn.call<CallFrame[][]>('debug_traceCallMany', [
    [{ transactions, blockOverride }],
    { blockNumber: block, transactionIndex: -1 },
    { tracer: 'callTracer', tracerConfig: { withLog: true } },
  ])
  return bundle ?? []
}

/** "open the full trace": the call trees, fetched when opened (the summary does not wait for them). */
function fullTrace(conn: Connection, calls: CallRequest[], block: string, names: Names, tokenOf: TokenOf): HTMLElement {
  const nameOf = (a: string) => names.get(a.toLowerCase())
  const body = h('div', { class: 'trace-body' }, h('p', { class: 'loading' }, 'tracing…'))
  let loaded = false
  const details: HTMLDetailsElement = h(
    'details',
    { class: 'full-trace' },
    h(
      'summary',
      {},
      `open the full trace (${calls.length} call${calls.length > 1 ? 's' : ''}, each on the state the previous left)`,
    ),
    body,
  )
  details.addEventListener('toggle', () => {
    if (!details.open || loaded) return
    loaded = true
    traceCalls(conn, calls, block).then(
      (trees) =>
        body.replaceChildren(
          ...trees.map((tree, i) =>
            h('div', { class: 'trace-call' }, h('h3', {}, `call ${i + 1}`), renderCallTree(tree, { nameOf, tokenOf })),
          ),
        ),
      (err: Error) => {
        loaded = false
        body.replaceChildren(h('p', { class: 'error' }, `the trace could not be made: ${err.message}`))
      },
    )
  })
  return details
}

/**
 * The preview page's answer for what was pasted: calls previewed by edgetrace_previewTransactions
 * (each call's outcome, asset changes, approvals, signals, the block and trust) with their full
 * trace below; typed data by edgetrace_previewTypedData. Both on the latest block.
 */
export async function explorePreview(conn: Connection, input: PreviewInput, names: Names): Promise<HTMLElement[]> {
  const nameOf = (a: string) => names.get(a.toLowerCase())
  if (input.kind === 'typedData') {
    const p = await conn.call<TypedDataPreview>('edgetrace_previewTypedData', [
      input.account,
      input.typedData,
      'latest',
    ])
    for (const g of p.grants ?? [])
      if (g.token.symbol && !names.has(g.token.address.toLowerCase()))
        names.set(g.token.address.toLowerCase(), g.token.symbol)
    return [
      section(
        p.recognized ? 'What this signature would allow' : 'Typed data',
        'preview-summary',
        renderTypedDataPreview(p, { nameOf, you: input.account }),
      ),
    ]
  }
  const options = input.account ? [{ account: input.account }] : []
  const p = await conn.call<TransactionsPreview>('edgetrace_previewTransactions', [input.calls, 'latest', ...options])
  for (const t of tokensOf(p))
    if (t.symbol && t.standard !== 'native' && !names.has(t.address.toLowerCase()))
      names.set(t.address.toLowerCase(), t.symbol)
  // ERC-20 amounts in the calls and their traces in decimals: the tokens the preview read.
  const known = new Map(
    tokensOf(p).flatMap((t) =>
      t.standard === 'erc20' && t.decimals !== null
        ? [[t.address.toLowerCase(), { decimals: t.decimals, ...(t.symbol ? { symbol: t.symbol } : {}) }] as const]
        : [],
    ),
  )
  const tokenOf = (a: string) => known.get(a.toLowerCase())
  const words = { nameOf, you: p.account, tokenOf }
  const calls = input.calls.map((c) => (c.from === undefined ? { ...c, from: p.account } : c))
  const failed = p.calls.filter((c) => c.status !== 'success').length
  return [
    section(
      'What it would do',
      'preview-summary',
      h(
        'p',
        { class: `status ${failed === 0 ? 'ok' : 'failed'}` },
        failed === 0
          ? `✔ ${p.calls.length === 1 ? 'the call would succeed' : `all ${p.calls.length} calls would succeed`}`
          : `✖ ${failed} of ${p.calls.length} call${p.calls.length > 1 ? 's' : ''} would fail`,
      ),
      renderPreviewCalls(p.calls, calls, words),
      renderPreviewSummary(p, words),
    ),
    section('Full trace', 'preview-trace', fullTrace(conn, calls, p.block.number, names, tokenOf)),
  ]
}
