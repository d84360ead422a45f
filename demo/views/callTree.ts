import { type Decoded, decodeCallData, describeRevert } from '../abi/signatures.js'
import { h } from '../dom.js'
import { big, eth, grouped, short } from '../format.js'
import type { SourceFrame } from '../../src/tracing/render/source/toSourceFrames.js'
import { revertErrorText } from '../source/sourceTrace.js'
import type { CallFrame } from '../traceTypes.js'
import { type TokenOf, callAmounts } from './tokenAmounts.js'

/** A decoded call as one line: `transfer(to: bob, amount: 1000)` (known addresses by name). */
export function callLabel(
  decoded: Decoded | undefined,
  input: string,
  nameOf: (a: string) => string | undefined = () => undefined,
): string {
  return callLabelParts(decoded, input, nameOf)
    .map((p) => (typeof p === 'string' ? p : (p.textContent ?? '')))
    .join('')
}

/**
 * callLabel's parts, where `amount(i, value)` may give an element for argument i (a token amount in
 * its decimals, its base units on hover: tokenAmount) to stand for its raw value.
 */
export function callLabelParts(
  decoded: Decoded | undefined,
  input: string,
  nameOf: (a: string) => string | undefined = () => undefined,
  amount: (index: number, value: string) => HTMLElement | undefined = () => undefined,
): (string | HTMLElement)[] {
  if (!decoded) return [input.length >= 10 ? `${input.slice(0, 10)}(…)` : input === '0x' ? '(no calldata)' : input]
  const show = (value: unknown): string =>
    Array.isArray(value)
      ? `[${value.map(show).join(', ')}]`
      : typeof value === 'string' && /^0x[0-9a-f]{40}$/.test(value)
        ? (nameOf(value) ?? value)
        : String(value)
  const parts: (string | HTMLElement)[] = [`${decoded.name}(`]
  for (const [i, a] of decoded.args.entries()) {
    parts.push(`${i > 0 ? ', ' : ''}${a.name ? `${a.name}: ` : ''}`)
    parts.push((typeof a.value === 'string' ? amount(i, a.value) : undefined) ?? show(a.value))
  }
  parts.push(')')
  return parts
}

/**
 * A call by the contract's own ABI (the source tracer's), else by the selector table; arguments the
 * ABI leaves unnamed (a public getter's key) take the table's names for the same signature.
 */
function byAbi(own: Decoded | null | undefined, input: string): Decoded | undefined {
  const table = decodeCallData(input)
  if (!own) return table
  if (!table || table.signature !== own.signature || own.args.every((a) => a.name)) return own
  return { ...own, args: own.args.map((a, i) => (a.name ? a : { ...a, name: table.args[i]?.name ?? '' })) }
}

/** Callees drawn at once under one frame. */
export const CHILDREN_SHOWN = 100

export type CallTreeOptions = {
  /** A name for known addresses (the devnet's contracts, tokens seen). */
  nameOf?: (address: string) => string | undefined
  /** Tokens' symbols and decimals: ERC-20 amounts in calls to them in decimals (tokenAmounts.ts), raw on hover. */
  tokenOf?: TokenOf
  /**
   * Each call's frame of edgetrace_sourceTracer (pairSourceFrames): its call decoded by the contract's
   * own ABI, a reverted frame's error and the Solidity line it reverted at.
   */
  source?: ReadonlyMap<CallFrame, SourceFrame>
  /** Shows where a failed call stopped (the stepper and its source pane jump there); the revert's line is a link when given. */
  showFailure?: (call: CallFrame) => void
}

/**
 * The call tree: each frame a collapsible row with its kind, target, decoded function and
 * arguments, value, gas used as a bar (against the whole transaction's) and its error.
 */
export function renderCallTree(root: CallFrame, opts: CallTreeOptions = {}): HTMLElement {
  const total = big(root.gasUsed) || 1n
  const countFrames = (f: CallFrame): number => 1 + (f.calls ?? []).reduce((n, c) => n + countFrames(c), 0)
  const count = countFrames(root)
  const frame = (f: CallFrame, depth: number): HTMLElement => {
    const creates = f.type === 'CREATE' || f.type === 'CREATE2'
    const sf = opts.source?.get(f)
    const decoded = creates ? undefined : byAbi(sf?.call as Decoded | null | undefined, f.input)
    // A creation whose init code the source tracer matched: `new Token(supply: …)`, its constructor's arguments.
    const built =
      creates && sf?.call && sf.contract ? { ...(sf.call as Decoded), name: `new ${sf.contract}` } : undefined
    const used = big(f.gasUsed)
    const pct = Number((used * 10000n) / total) / 100
    const name = f.to ? opts.nameOf?.(f.to) : undefined
    const reason = f.error
      ? sf?.revertError
        ? revertErrorText(sf.revertError, opts.nameOf)
        : (f.revertReason ?? describeRevert(f.output))
      : undefined
    const at = f.error && sf?.revert ? sf.revert : undefined
    const children = f.calls ?? []
    // One line, whatever its length: the call cut short (whole on hover), the gas bar beside it.
    const row = h(
      'span',
      { class: `frame-row${f.error ? ' failed' : ''}` },
      h('span', { class: `kind kind-${f.type.toLowerCase()}` }, f.type),
      ' ',
      h('span', { class: 'target', title: f.to ?? '' }, name ? `${name} ` : '', h('code', {}, short(f.to ?? '?', 8))),
      ' ',
      h(
        'span',
        {
          class: `fn${sf?.call ? ' by-abi' : ''}`,
          title: creates
            ? built
              ? callLabel(built, f.input, opts.nameOf)
              : undefined
            : callLabel(decoded, f.input, opts.nameOf),
          'data-abi': sf?.call && sf.contract ? sf.contract : undefined,
        },
        built
          ? callLabelParts(built, f.input, opts.nameOf)
          : creates
            ? `new contract (${(f.input.length - 2) / 2} bytes of init code)`
            : callLabelParts(decoded, f.input, opts.nameOf, callAmounts(decoded, f.to, opts.tokenOf)),
      ),
      big(f.value) > 0n ? h('span', { class: 'value' }, ` ${eth(big(f.value))}`) : null,
      h(
        'span',
        { class: 'gas', title: `${grouped(used)} gas, ${pct}% of the transaction's` },
        h('span', { class: 'bar', style: `width:${Math.max(pct, 0.5)}%` }),
        h('span', { class: 'gas-text' }, `${grouped(used)} gas`),
      ),
      children.length > 0
        ? h('span', { class: 'count' }, `(${children.length} call${children.length > 1 ? 's' : ''})`)
        : null,
      f.error
        ? h(
            'span',
            { class: 'error', title: `${f.error}${reason ? `: ${reason}` : ''}` },
            `✖ ${f.error}${reason ? `: ${reason}` : ''}`,
          )
        : null,
      at
        ? h(
            'a',
            {
              class: 'revert-line',
              href: '#stepper',
              'data-file': at.file,
              'data-line': at.line,
              title: 'the Solidity statement it reverted at (in the source pane)',
              onclick: (e: Event) => {
                if (!opts.showFailure) return
                e.preventDefault()
                opts.showFailure(f)
              },
            },
            ` at ${at.file}:${at.line}`,
          )
        : null,
    )
    if (children.length === 0) return h('div', { class: 'frame leaf', 'data-depth': depth }, row)
    return h(
      'details',
      { class: 'frame', open: depth < 3, 'data-depth': depth },
      h('summary', {}, row),
      childList(children, depth + 1),
    )
  }
  /** A frame's callees: the first CHILDREN_SHOWN drawn, the rest on a click (a loop of 2,000 calls stays quick). */
  const childList = (children: CallFrame[], depth: number): HTMLElement => {
    const list = h(
      'div',
      { class: 'children' },
      children.slice(0, CHILDREN_SHOWN).map((c) => frame(c, depth)),
    )
    const rest = children.length - CHILDREN_SHOWN
    if (rest > 0) {
      const more: HTMLButtonElement = h(
        'button',
        {
          type: 'button',
          class: 'more',
          onclick: () => more.replaceWith(...children.slice(CHILDREN_SHOWN).map((c) => frame(c, depth))),
        },
        `show ${grouped(rest)} more call${rest > 1 ? 's' : ''}`,
      )
      list.append(more)
    }
    return list
  }
  const tree = frame(root, 0)
  return h(
    'div',
    { class: 'call-tree' },
    h(
      'div',
      { class: 'tools' },
      `${grouped(count)} frame${count > 1 ? 's' : ''} · `,
      h('button', { type: 'button', onclick: () => setOpen(tree, true) }, 'expand all'),
      ' ',
      h('button', { type: 'button', onclick: () => setOpen(tree, false) }, 'collapse all'),
    ),
    tree,
  )
}

function setOpen(root: HTMLElement, open: boolean) {
  for (const d of [root, ...Array.from(root.querySelectorAll('details'))])
    if (d instanceof HTMLDetailsElement) d.open = open
}
