import { decodeCallData } from '../abi/signatures.js'
import { h } from '../dom.js'
import { big, grouped } from '../format.js'
import type { CallFrame } from '../traceTypes.js'

/**
 * The gas flame graph (an icicle): the transaction's gas across, each frame's box as wide as its
 * gas used, its callees beneath it from its left edge; what is left of a box is its own gas.
 */
export function renderFlameGraph(root: CallFrame): HTMLElement {
  const total = Number(big(root.gasUsed)) || 1
  const boxes: HTMLElement[] = []
  let rows = 0
  const place = (f: CallFrame, left: number, depth: number, width: number) => {
    rows = Math.max(rows, depth + 1)
    const used = Number(big(f.gasUsed))
    const name = f.type.startsWith('CREATE')
      ? f.type
      : (decodeCallData(f.input)?.name ?? (f.input.slice(0, 10) || f.type))
    boxes.push(
      h(
        'div',
        {
          class: `flame-box${f.error ? ' failed' : ''}`,
          style: `left:${(left / total) * 100}%;width:${(width / total) * 100}%;top:${depth * 22}px`,
          title: `${f.type} ${f.to ?? ''} ${name}: ${grouped(used)} gas${f.error ? ` (${f.error})` : ''}`,
        },
        width / total > 0.04 ? name : '',
      ),
    )
    let at = left
    // Callees too narrow to see (under 0.2% of the width) are drawn as one box per run of them.
    let run = { from: at, calls: 0, gas: 0 }
    const flush = () => {
      if (run.calls === 0) return
      boxes.push(
        h(
          'div',
          {
            class: 'flame-box group',
            style: `left:${(run.from / total) * 100}%;width:${((at - run.from) / total) * 100}%;top:${(depth + 1) * 22}px`,
            title: `${grouped(run.calls)} calls too narrow to draw apart: ${grouped(run.gas)} gas`,
          },
          (at - run.from) / total > 0.04 ? `${grouped(run.calls)} calls` : '',
        ),
      )
      rows = Math.max(rows, depth + 2)
    }
    for (const child of f.calls ?? []) {
      const w = Math.min(Number(big(child.gasUsed)), left + width - at)
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
  place(root, 0, 0, Number(big(root.gasUsed)))
  return h('div', { class: 'flame', style: `height:${rows * 22}px` }, boxes)
}
