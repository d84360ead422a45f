import { decodeCallData } from '../abi/signatures.js'
import { h } from '../dom.js'
import { big, grouped } from '../format.js'
import type { FlameNode } from '../source/sourceTrace.js'
import type { CallFrame } from '../traceTypes.js'

/** The call tree as flame boxes: each frame by its decoded function (else selector), its gas used. */
function frameNodes(f: CallFrame): FlameNode {
  const name = f.type.startsWith('CREATE')
    ? f.type
    : (decodeCallData(f.input)?.name ?? (f.input.slice(0, 10) || f.type))
  return {
    label: name,
    gas: Number(big(f.gasUsed)),
    title: `${f.type} ${f.to ?? ''} ${name}${f.error ? ` (${f.error})` : ''}`,
    failed: Boolean(f.error),
    children: (f.calls ?? []).map(frameNodes),
  }
}

/**
 * A flame graph (an icicle): the root's gas across, each box as wide as its gas, its children beneath
 * it from its left edge; what is left of a box is its own gas.
 */
function renderFlame(root: FlameNode, kind: string): HTMLElement {
  const total = root.gas || 1
  const boxes: HTMLElement[] = []
  let rows = 0
  const place = (f: FlameNode, left: number, depth: number, width: number) => {
    rows = Math.max(rows, depth + 1)
    boxes.push(
      h(
        'div',
        {
          class: `flame-box${f.failed ? ' failed' : ''}`,
          style: `left:${(left / total) * 100}%;width:${(width / total) * 100}%;top:${depth * 22}px`,
          title: `${f.title ?? f.label}: ${grouped(f.gas)} gas`,
        },
        width / total > 0.04 ? f.label : '',
      ),
    )
    let at = left
    // Children too narrow to see (under 0.2% of the width) are drawn as one box per run of them.
    let run = { from: at, calls: 0, gas: 0 }
    const flush = () => {
      if (run.calls === 0) return
      boxes.push(
        h(
          'div',
          {
            class: 'flame-box group',
            style: `left:${(run.from / total) * 100}%;width:${((at - run.from) / total) * 100}%;top:${(depth + 1) * 22}px`,
            title: `${grouped(run.calls)} ${kind} too narrow to draw apart: ${grouped(run.gas)} gas`,
          },
          (at - run.from) / total > 0.04 ? `${grouped(run.calls)} ${kind}` : '',
        ),
      )
      rows = Math.max(rows, depth + 2)
    }
    for (const child of f.children) {
      const w = Math.min(child.gas, left + width - at)
      if (w <= 0) continue
      if (w / total < 0.002) {
        if (run.calls === 0) run = { from: at, calls: 0, gas: 0 }
        run.calls++
        run.gas += w
      } else {
        flush()
        run = { from: at, calls: 0, gas: 0 }
        place(child, at, depth + 1, w)
      }
      at += w
    }
    flush()
  }
  place(root, 0, 0, root.gas)
  return h('div', { class: 'flame', style: `height:${rows * 22}px` }, boxes)
}

/**
 * The gas flame graph of the call tree; with `functions` (the flame by Solidity function, from the
 * source tracer: functionFlame), a toggle between the two, by frames first.
 */
export function renderFlameGraph(root: CallFrame, functions?: FlameNode): HTMLElement {
  const frames = renderFlame(frameNodes(root), 'calls')
  if (!functions) return frames
  const host = h('div', { class: 'flame-host', 'data-view': 'frames' }, frames)
  const show = (view: 'frames' | 'functions') => {
    host.dataset.view = view
    host.replaceChildren(view === 'frames' ? frames : renderFlame(functions, 'functions'))
    for (const b of Array.from(tools.querySelectorAll('button'))) b.classList.toggle('active', b.dataset.view === view)
  }
  const button = (view: 'frames' | 'functions', text: string) =>
    h('button', { type: 'button', class: `flame-${view}`, 'data-view': view, onclick: () => show(view) }, text)
  const tools = h(
    'div',
    { class: 'tools' },
    'by ',
    button('frames', 'call frames'),
    ' ',
    button('functions', 'Solidity functions'),
  )
  tools.querySelector('button')?.classList.add('active')
  return h('div', { class: 'flame-graph' }, tools, host)
}
