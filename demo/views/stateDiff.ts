import { h } from '../dom.js'
import { big, eth, grouped, short } from '../format.js'
import type { AccountState, StateDiff } from '../traceTypes.js'

const codeSize = (code: string | undefined) => (code ? (code.length - 2) / 2 : 0)

/** Every account the transaction changed: balance, nonce, code and each storage slot, before → after. */
export function renderStateDiff(diff: StateDiff, nameOf: (a: string) => string | undefined): HTMLElement {
  const addresses = [...new Set([...Object.keys(diff.pre), ...Object.keys(diff.post)])]
  if (addresses.length === 0) return h('p', { class: 'muted' }, 'No state changed.')
  const rows: HTMLElement[] = []
  for (const address of addresses) {
    const pre: AccountState = diff.pre[address] ?? {}
    const post: AccountState = diff.post[address] ?? {}
    const gone = !(address in diff.post) && address in diff.pre && Object.keys(pre).length > 0
    const name = nameOf(address)
    rows.push(
      h(
        'tr',
        { class: 'account' },
        h(
          'th',
          { colspan: 4, title: address },
          name ? `${name} ` : '',
          h('code', {}, address),
          !(address in diff.pre) || Object.keys(pre).length === 0 ? ' (new)' : gone ? ' (deleted)' : '',
        ),
      ),
    )
    const row = (what: string, before: string | Node, after: string | Node, delta = '') =>
      rows.push(
        h('tr', { class: 'change' }, h('td', {}, what), h('td', {}, before), h('td', {}, after), h('td', {}, delta)),
      )
    if (post.balance !== undefined || (gone && pre.balance !== undefined)) {
      const b = big(pre.balance)
      const a = big(post.balance)
      const d = a - b
      row('balance', eth(b), eth(a), `${d >= 0n ? '+' : ''}${eth(d)}`)
    }
    if (post.nonce !== undefined) row('nonce', String(pre.nonce ?? 0), String(post.nonce))
    if (post.code !== undefined || (gone && pre.code))
      row('code', `${grouped(codeSize(pre.code))} bytes`, `${grouped(codeSize(post.code))} bytes`)
    const slots = [...new Set([...Object.keys(pre.storage ?? {}), ...Object.keys(post.storage ?? {})])].sort()
    for (const slot of slots) {
      const before = pre.storage?.[slot] ?? `0x${'0'.repeat(64)}`
      const after = post.storage?.[slot] ?? `0x${'0'.repeat(64)}`
      row(`slot ${short(slot, 10)}`, trimWord(before), trimWord(after))
    }
  }
  return h(
    'table',
    { class: 'state-diff' },
    h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, 'before'), h('th', {}, 'after'), h('th', {}, 'change'))),
    h('tbody', {}, rows),
  )
}

/** A storage word without its leading zeros (0x0 stays 0x0), full value on hover. */
function trimWord(word: string): HTMLElement {
  const trimmed = `0x${word.slice(2).replace(/^0+/, '') || '0'}`
  return h('code', { title: word }, trimmed)
}
