import { h } from '../dom.js'
import { big, short } from '../format.js'
import type { TypedDataPreview } from './previewTypes.js'
import {
  type SummaryWords,
  renderComputedOn,
  renderSignals,
  signedQuantity,
  tokenAmount,
  tokenName,
  unlimitedFrom,
  utc,
  whoFor,
} from './renderPreviewSummary.js'

const KIND_NAMES = {
  eip2612: 'an EIP-2612 permit',
  dai: 'a DAI-style permit',
  permit2: 'a Permit2 allowance',
  permit2Transfer: 'a Permit2 transfer',
} as const

/**
 * What an eth_signTypedData_v4 signature would allow, from edgetrace_previewTypedData's answer: the
 * spender, each token's amount (unlimited said so), the deadline against the block's time, the
 * allowance and nonce in force, the worst case simulated, what makes it useless, and the signals.
 * Typed data it does not recognise is shown decoded, with no claims.
 */
export function renderTypedDataPreview(p: TypedDataPreview, words: SummaryWords): HTMLElement {
  const who = whoFor(words)
  if (!p.recognized)
    return h(
      'div',
      { class: 'typed-data-preview unrecognized' },
      h(
        'p',
        {},
        `Typed data of type ${p.typedData.primaryType}: not a permit edgetrace knows, so it says nothing of what it allows. `,
        'Read it before signing:',
      ),
      h(
        'pre',
        { class: 'typed-data' },
        JSON.stringify({ domain: p.typedData.domain, message: p.typedData.message }, null, 2),
      ),
      renderComputedOn(undefined, p.trust),
    )
  const unlimited = unlimitedFrom(p.kind)
  const grants = (p.grants ?? []).map((g) => {
    const address = g.token.address
    const amount = big(g.amount)
    return h(
      'li',
      { class: 'grant' },
      h(
        'b',
        { class: 'grant-amount' },
        amount >= unlimited
          ? h('span', { class: 'unlimited', title: `${amount} base units` }, `unlimited ${tokenName(g.token, address)}`)
          : tokenAmount(amount, g.token, address),
      ),
      g.token.name ? ` (${g.token.name}, ` : ' (',
      h('code', { title: address }, short(address, 6)),
      ')',
      g.expiration !== null ? `, until ${utc(big(g.expiration))}` : '',
      h(
        'ul',
        {},
        h(
          'li',
          {},
          'allowance in force now: ',
          g.current.amount === null ? 'unknown' : tokenAmount(big(g.current.amount), g.token, address),
        ),
        g.balance !== null
          ? h(
              'li',
              {},
              'your balance: ',
              tokenAmount(big(g.balance), g.token, address),
              g.atRisk !== null ? [' — at risk now: ', tokenAmount(big(g.atRisk), g.token, address)] : '',
            )
          : null,
        h(
          'li',
          {},
          `nonce ${big(g.nonce.signed)}`,
          g.nonce.valid === null
            ? ' (whether it is current is unknown)'
            : g.nonce.valid
              ? ' (current: usable)'
              : h(
                  'span',
                  { class: 'error' },
                  ` (not usable${g.nonce.current !== null ? `: current ${big(g.nonce.current)}` : ''})`,
                ),
        ),
        g.worstCase
          ? h(
              'li',
              { class: 'worst-case' },
              'worst case, simulated: the spender takes all it can — ',
              g.worstCase.status === 'success'
                ? [
                    'you would lose ',
                    g.worstCase.loss === null
                      ? 'an unknown amount'
                      : tokenAmount(signedQuantity(g.worstCase.loss), g.token, address),
                    g.worstCase.balanceAfter !== null
                      ? [', leaving ', tokenAmount(big(g.worstCase.balanceAfter), g.token, address)]
                      : '',
                  ]
                : 'the pull fails',
            )
          : null,
      ),
    )
  })
  const deadline = p.deadline
  return h(
    'div',
    { class: 'typed-data-preview' },
    h(
      'p',
      { class: 'typed-data-lead' },
      `Signing ${p.kind ? KIND_NAMES[p.kind] : 'this'} lets `,
      p.spender ? who(p.spender) : '?',
      ' ',
      h('span', { class: 'muted' }, p.spender ? `(spender ${p.spender})` : ''),
      ' take from ',
      p.owner ? who(p.owner) : 'you',
      ':',
    ),
    h('ul', { class: 'grants' }, grants),
    h(
      'p',
      { class: 'deadline' },
      'deadline: ',
      deadline?.value === null || deadline === undefined
        ? 'none'
        : h(
            'span',
            { title: `${big(deadline.value)} (unix seconds)` },
            utc(big(deadline.value)),
            deadline.passed
              ? h('span', { class: 'error' }, ' — passed at the block’s time')
              : ' — not passed at the block’s time',
          ),
      deadline ? h('span', { class: 'muted' }, ` (block time ${utc(big(deadline.blockTime))})`) : '',
    ),
    p.usable
      ? h('p', { class: 'status ok' }, '✔ usable as it is: the spender can use this signature')
      : h(
          'div',
          { class: 'problems' },
          h('p', { class: 'status failed' }, '✖ this signature cannot be used:'),
          h(
            'ul',
            {},
            (p.problems ?? []).map((x) => h('li', { class: 'error' }, x)),
          ),
        ),
    h('h3', {}, 'Signals'),
    renderSignals(
      p.signals ?? [],
      (p.grants ?? []).map((g) => g.token),
      words,
    ),
    renderComputedOn(p.block, p.trust),
  )
}
