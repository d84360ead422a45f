import { decodeCallData, describeRevert } from '../abi/signatures.js'
import { h } from '../dom.js'
import type { CallRequest } from '../explore.js'
import { big, eth, grouped, short, units } from '../format.js'
import { callLabelParts } from '../views/callTree.js'
import { type TokenOf, callAmounts } from '../views/tokenAmounts.js'
import type {
  AssetChange,
  PreviewApproval,
  PreviewRevert,
  PreviewSignal,
  PreviewToken,
  PreviewedCall,
  TransactionsPreview,
} from './previewTypes.js'
import { signalSentence } from './signalSentence.js'
import type { TrustReport } from '../views/trustPanel.js'

/** An ERC-20 allowance at or above 2^255 is unlimited (as the daemon's unlimitedApproval); Permit2's is max uint160. */
const UNLIMITED_ERC20 = 1n << 255n
const UNLIMITED_PERMIT2 = (1n << 160n) - 1n

/** The amount from which an approval or grant of `kind` is said "unlimited": Permit2's allowance, else an ERC-20's. */
export const unlimitedFrom = (kind: string | undefined): bigint =>
  kind === 'permit2' ? UNLIMITED_PERMIT2 : UNLIMITED_ERC20
const ZERO_ADDRESS = `0x${'0'.repeat(40)}`

/** A signed quantity (`-0x…` below zero). */
export const signedQuantity = (q: string): bigint => (q.startsWith('-') ? -BigInt(q.slice(1)) : BigInt(q))

export type SummaryWords = {
  /** A name for known addresses (the devnet's contracts and accounts). */
  nameOf: (address: string) => string | undefined
  /** The account previewed: said "you". */
  you: string
  /** Tokens' symbols and decimals: ERC-20 amounts in the calls in decimals (the base units on hover). */
  tokenOf?: TokenOf
}

/** A token as a person names it: its symbol, else its short address. */
export const tokenName = (t: PreviewToken | undefined, address: string) => t?.symbol ?? short(address, 6)

/** An amount in the token's units with its symbol, the raw base units on hover. */
export function tokenAmount(value: bigint, token: PreviewToken | undefined, address: string, signed = false) {
  const decimals = token?.decimals ?? 0
  const sign = signed && value > 0n ? '+' : ''
  return h(
    'span',
    { class: 'amount', title: `${value} base units${token?.decimals === null ? ' (decimals unknown)' : ''}` },
    `${sign}${units(value, decimals)} ${tokenName(token, address)}`,
  )
}

/** A time in seconds since 1970 as a UTC date and time. */
export const utc = (seconds: bigint) =>
  seconds >= 253_402_300_800n
    ? 'never'
    : `${new Date(Number(seconds) * 1000).toISOString().replace('.000Z', ' UTC').replace('T', ' ')}`

/** A revert in words: Error(string)'s message, a panic's, a named custom error, else what the page's table decodes. */
export function revertWords(revert: PreviewRevert | null, error: { message: string } | null): string {
  if (revert?.type === 'Error' || revert?.type === 'Panic') return revert.message ?? revert.type
  if (revert?.name) return `${revert.name}${revert.args !== undefined ? `(${formatArgs(revert.args)})` : ''}`
  return describeRevert(revert?.data) ?? error?.message ?? 'reverted'
}
/** A custom error's arguments as the daemon answers them ({name, type, value}, integers as quantities). */
const formatArgs = (args: unknown): string =>
  Array.isArray(args)
    ? args
        .map((a) => {
          if (typeof a !== 'object' || a === null || !('value' in a)) return String(a)
          const { name, type, value } = a as { name?: string; type?: string; value: unknown }
          const shown =
            typeof value === 'string' && /^-?0x/.test(value) && /^u?int/.test(type ?? '')
              ? String(value.startsWith('-') ? -BigInt(value.slice(1)) : BigInt(value))
              : String(value)
          return `${name ? `${name}: ` : ''}${shown}`
        })
        .join(', ')
    : String(args)

/** The people and contracts named in the summary: "you", a known name, else a short address; the address on hover. */
export function whoFor(words: SummaryWords) {
  return (address: string) => {
    const label =
      address.toLowerCase() === words.you.toLowerCase() ? 'you' : (words.nameOf(address) ?? short(address, 6))
    return h('span', { class: 'who', title: address }, label)
  }
}

/** Each call: status, gas, what it calls and its decoded revert. */
export function renderPreviewCalls(
  calls: readonly PreviewedCall[],
  given: readonly CallRequest[],
  words: SummaryWords,
) {
  const who = whoFor(words)
  return h(
    'ol',
    { class: 'preview-calls' },
    calls.map((c, i) => {
      const call = given[i] ?? {}
      const ok = c.status === 'success'
      return h(
        'li',
        { class: `preview-call ${ok ? 'ok' : 'failed'}` },
        h('span', { class: `call-status ${ok ? 'ok' : 'failed'}` }, ok ? '✔ succeeds' : '✖ fails'),
        ok ? '' : h('span', { class: 'error revert' }, `: ${revertWords(c.revert, c.error)}`),
        ` · ${grouped(big(c.gasUsed))} gas · `,
        call.to
          ? [
              h(
                'span',
                { class: 'fn' },
                decodeCallData(call.data ?? '0x') || !c.function
                  ? callLabelParts(
                      decodeCallData(call.data ?? '0x'),
                      call.data ?? '0x',
                      (a) => words.nameOf(a),
                      callAmounts(decodeCallData(call.data ?? '0x'), call.to, words.tokenOf),
                    )
                  : c.function.signature,
              ),
              ' on ',
              who(call.to),
            ]
          : 'creates a contract',
        big(call.value) > 0n ? h('span', { class: 'value' }, ` with ${eth(big(call.value))}`) : '',
      )
    }),
  )
}

/** The account's asset changes: ether (the gas paid said apart), ERC-20 in their units, NFTs by id. */
export function renderAssetChanges(changes: readonly AssetChange[]) {
  const rows = changes.map((c) => {
    const address = c.token.address
    if (c.token.standard === 'native') {
      const diff = c.value ? signedQuantity(c.value.diff) : 0n
      return h(
        'tr',
        { class: `asset native ${diff < 0n ? 'loss' : diff > 0n ? 'gain' : ''}` },
        h('td', {}, 'ETH'),
        h('td', { class: 'change', title: `${diff} wei` }, `${diff > 0n ? '+' : ''}${eth(diff)}`),
        h(
          'td',
          { class: 'muted' },
          c.gasPaid !== undefined ? `and ${eth(big(c.gasPaid))} for gas (paid apart)` : '',
          c.value ? ` · ${eth(big(c.value.pre))} → ${eth(big(c.value.post))} before gas` : '',
        ),
      )
    }
    const name = h(
      'td',
      { title: address },
      `${tokenName(c.token, address)}${c.token.name ? ` (${c.token.name})` : ''} `,
      h('span', { class: 'standard' }, c.token.standard.toUpperCase().replace('ERC', 'ERC-')),
    )
    if (!c.value)
      return h(
        'tr',
        { class: 'asset' },
        name,
        h('td', { class: 'muted' }, 'unknown: its balance did not answer'),
        h('td'),
      )
    const diff = signedQuantity(c.value.diff)
    const cls = `asset ${c.token.standard} ${diff < 0n ? 'loss' : diff > 0n ? 'gain' : ''}`
    if (c.token.standard === 'erc721') {
      const id = `NFT #${big(c.tokenId)}`
      return h(
        'tr',
        { class: cls },
        name,
        h(
          'td',
          { class: 'change' },
          diff > 0n ? `+ ${id} (received)` : diff < 0n ? `− ${id} (sent)` : `${id} (unchanged)`,
        ),
        h('td', { class: 'muted' }, big(c.value.post) === 1n ? 'yours after' : 'not yours after'),
      )
    }
    if (c.token.standard === 'erc1155') {
      return h(
        'tr',
        { class: cls },
        name,
        h('td', { class: 'change' }, `${diff > 0n ? '+' : ''}${diff} × id ${big(c.tokenId)}`),
        h('td', { class: 'muted' }, `${big(c.value.pre)} → ${big(c.value.post)}`),
      )
    }
    return h(
      'tr',
      { class: cls },
      name,
      h('td', { class: 'change' }, tokenAmount(diff, c.token, address, true)),
      h(
        'td',
        { class: 'muted' },
        tokenAmount(big(c.value.pre), c.token, address),
        ' → ',
        tokenAmount(big(c.value.post), c.token, address),
      ),
    )
  })
  return h(
    'table',
    { class: 'asset-changes' },
    h('thead', {}, h('tr', {}, h('th', {}, 'asset'), h('th', {}, 'change'), h('th', {}, 'before → after'))),
    h('tbody', {}, rows),
  )
}

/** Approvals granted or changed, before → after; an unlimited amount said "unlimited". */
export function renderApprovals(approvals: readonly PreviewApproval[], words: SummaryWords) {
  const who = whoFor(words)
  const allowed = (a: PreviewApproval, v: string | boolean | null) => {
    if (v === null || typeof v === 'boolean') return v === null ? 'unknown' : v ? 'yes' : 'no'
    const n = big(v)
    if (n >= unlimitedFrom(a.kind))
      return h(
        'span',
        { class: 'unlimited', title: `${n} base units` },
        `unlimited ${tokenName(a.token, a.token.address)}`,
      )
    return tokenAmount(n, a.token, a.token.address)
  }
  const approved = (v: string | boolean | null) =>
    typeof v !== 'string' ? 'unknown' : v === ZERO_ADDRESS ? 'nobody' : who(v)
  const rows = approvals.map((a) => {
    const token = tokenName(a.token, a.token.address)
    const what =
      a.kind === 'approve'
        ? `NFT #${big(a.tokenId)} of ${token}`
        : a.kind === 'approvalForAll'
          ? `all your ${token} (${a.standard.toUpperCase().replace('ERC', 'ERC-')})`
          : a.kind === 'permit2'
            ? `${token} through Permit2`
            : `${token} (ERC-20)`
    const change =
      a.kind === 'approve'
        ? [approved(a.pre), ' → ', approved(a.post)]
        : a.kind === 'approvalForAll'
          ? [allowed(a, a.pre), ' → ', allowed(a, a.post)]
          : [allowed(a, a.pre), ' → ', allowed(a, a.post)]
    const expires = a.kind === 'permit2' && a.expiration?.post ? ` (until ${utc(big(a.expiration.post))})` : ''
    return h(
      'tr',
      { class: 'approval' },
      h('td', { title: a.token.address }, what),
      h('td', {}, a.kind === 'approve' ? 'approved' : a.spender ? who(a.spender) : '?'),
      h('td', { class: 'change' }, change, expires),
    )
  })
  return h(
    'table',
    { class: 'approvals' },
    h('thead', {}, h('tr', {}, h('th', {}, 'what'), h('th', {}, 'spender'), h('th', {}, 'before → after'))),
    h('tbody', {}, rows),
  )
}

const SEVERITY = { danger: '⛔', warning: '⚠', info: 'ℹ' } as const

/** The signals as sentences, the most severe first. */
export function renderSignals(signals: readonly PreviewSignal[], tokens: readonly PreviewToken[], words: SummaryWords) {
  if (signals.length === 0) return h('p', { class: 'muted signals-none' }, 'No signals: nothing here looks unusual.')
  const who = whoFor(words)
  const token = (address: string) =>
    tokenName(
      tokens.find((t) => t.address.toLowerCase() === address.toLowerCase()),
      address,
    )
  const order = { danger: 0, warning: 1, info: 2 } as const
  return h(
    'ul',
    { class: 'signals' },
    [...signals]
      .sort((a, b) => (order[a.severity] ?? 3) - (order[b.severity] ?? 3))
      .map((s) =>
        h(
          'li',
          { class: `signal ${s.severity}`, 'data-kind': s.kind },
          h('span', { class: 'severity', title: s.severity }, `${SEVERITY[s.severity] ?? '•'} `),
          signalSentence(s, { who, token }),
        ),
      ),
  )
}

/** The block the answer was computed on and the trust mode anchoring it. */
export function renderComputedOn(
  block: { number: string; hash: string; transactionIndex?: number } | undefined,
  trust: TrustReport | undefined,
) {
  const mode = trust?.mode
  const anchor =
    mode === 'consensus'
      ? `consensus (finalized slot ${trust?.finalized ? BigInt(trust.finalized.slot) : '?'}${trust?.participation ? `, ${trust.participation.signed}/${trust.participation.of} signatures` : ''})`
      : mode === 'checkpoint'
        ? 'checkpoint (blocks hash-linked to the checkpoint)'
        : mode === 'upstream'
          ? "upstream (blocks are the upstream node's word)"
          : 'unknown'
  return h(
    'p',
    { class: `computed-on computed-${mode ?? 'unknown'}` },
    'Computed on block ',
    block ? h('a', { href: `#/block/${big(block.number)}` }, String(big(block.number))) : '?',
    block ? [' (', h('code', { title: block.hash }, short(block.hash, 8)), ')'] : '',
    block?.transactionIndex === 0
      ? ", on its parent's state (before the block's first transaction)"
      : block?.transactionIndex !== undefined
        ? `, on its state after its first ${block.transactionIndex} transaction${block.transactionIndex === 1 ? '' : 's'}`
        : block
          ? ', on the state after it'
          : '',
    ' · trust mode: ',
    h('b', {}, anchor),
  )
}

/** The tokens an answer names, for signals that name a token by address. */
export const tokensOf = (p: TransactionsPreview): PreviewToken[] => [
  ...p.assetChanges.map((c) => c.token),
  ...p.approvals.map((a) => a.token),
]

/**
 * What a wallet shows before signing, from edgetrace_previewTransactions' answer: the asset changes,
 * approvals and signals of the account (the calls apart: renderPreviewCalls).
 */
export function renderPreviewSummary(p: TransactionsPreview, words: SummaryWords): HTMLElement {
  return h(
    'div',
    { class: 'preview-summary' },
    h('h3', {}, 'Asset changes'),
    h(
      'p',
      { class: 'muted' },
      'of the account ',
      h('code', {}, p.account),
      words.nameOf(p.account) ? ` (${words.nameOf(p.account)})` : '',
      ', said “you”; read by verified calls before and after, not from events',
    ),
    renderAssetChanges(p.assetChanges),
    h('h3', {}, `Approvals (${p.approvals.length})`),
    p.approvals.length > 0
      ? renderApprovals(p.approvals, words)
      : h('p', { class: 'muted' }, 'No approval granted or changed.'),
    h('h3', {}, 'Signals'),
    renderSignals(p.signals, tokensOf(p), words),
    renderComputedOn(p.block, p.trust),
  )
}
