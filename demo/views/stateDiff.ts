import { h } from '../dom.js'
import { big, eth, grouped, short } from '../format.js'
import type { StorageVariable } from '../../src/sources/decodeStorage.js'
import { type NamedSlots, isTokenAmountVariable, variableDelta } from '../source/sourceTrace.js'
import type { AccountState, StateDiff } from '../traceTypes.js'
import { type TokenOf, tokenAmount } from './tokenAmounts.js'

const codeSize = (code: string | undefined) => (code ? (code.length - 2) / 2 : 0)

/**
 * Every account the transaction changed: balance, nonce, code and each storage slot, before → after.
 * A slot the source tracer named (`named`: the contract's storage layout) is shown as its variables,
 * `balanceOf[0x…]` with decoded values (the raw slot and words on hover); other slots stay raw.
 * Integers are grouped by thousands; a token's balances, allowances and supply in its decimals with
 * its symbol where `tokenOf` knows them (the base units on hover).
 */
export function renderStateDiff(
  diff: StateDiff,
  nameOf: (a: string) => string | undefined,
  named?: NamedSlots,
  tokenOf: TokenOf = () => undefined,
): HTMLElement {
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
    const row = (
      what: string | Node,
      before: string | Node,
      after: string | Node,
      delta: string | Node = '',
      cls = 'change',
    ) =>
      rows.push(h('tr', { class: cls }, h('td', {}, what), h('td', {}, before), h('td', {}, after), h('td', {}, delta)))
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
      const variables = named?.get(address.toLowerCase())?.get(slot.toLowerCase())
      if (!variables || variables.length === 0) {
        row(`slot ${short(slot, 10)}`, trimWord(before), trimWord(after))
        continue
      }
      // Packed slots list each variable in them: those that changed are shown (all, when none says so).
      const changed = variables.filter((v) => v.changed)
      for (const v of changed.length > 0 ? changed : variables) {
        const hover = `slot ${slot}${v.offset ? ` (offset ${v.offset})` : ''}: ${before} → ${after}`
        const token = isTokenAmountVariable(v) ? tokenOf(address.toLowerCase()) : undefined
        const delta = variableDelta(v)
        const signed = delta && token && tokenAmount(delta.replace(/^[-+]/, ''), token)
        row(
          h('span', {}, h('code', { class: 'variable', title: hover }, v.name), knownIn(v.name, nameOf)),
          shown(v, v.before, token),
          shown(v, v.after, token),
          signed ? h('span', {}, delta.startsWith('-') ? '-' : '+', signed) : delta ? groupedInteger(delta) : '',
          'change named',
        )
      }
    }
  }
  return h(
    'table',
    { class: 'state-diff' },
    h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, 'before'), h('th', {}, 'after'), h('th', {}, 'change'))),
    h('tbody', {}, rows),
  )
}

/** A variable's value: a token amount where it is one, integers grouped by thousands, the rest as decoded; its type on hover. */
function shown(v: StorageVariable, value: string, token: ReturnType<TokenOf>): HTMLElement {
  const amount = token ? tokenAmount(value, token) : undefined
  if (amount) return amount
  return h('code', { title: `${v.type} ${value}` }, /^u?int\d*$/.test(v.type) ? groupedInteger(value) : value)
}

/** The accounts a variable's name holds as keys that the page knows by name (`balanceOf[0x70…]` → ` (bob)`). */
function knownIn(name: string, nameOf: (a: string) => string | undefined): HTMLElement | null {
  const names = (name.match(/0x[0-9a-fA-F]{40}(?![0-9a-fA-F])/g) ?? []).map((a) => nameOf(a.toLowerCase()))
  return names.some(Boolean) ? h('span', { class: 'muted' }, ` (${names.map((n) => n ?? '?').join(', ')})`) : null
}

/** `-1234567` as `-1,234,567` (text that is not an integer as it is). */
const groupedInteger = (text: string) =>
  /^[-+]?\d+$/.test(text) ? `${/^[-+]/.test(text) ? text[0] : ''}${grouped(BigInt(text.replace(/^[-+]/, '')))}` : text

/** A storage word without its leading zeros (0x0 stays 0x0), full value on hover. */
function trimWord(word: string): HTMLElement {
  const trimmed = `0x${word.slice(2).replace(/^0+/, '') || '0'}`
  return h('code', { title: word }, trimmed)
}
