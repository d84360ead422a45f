import { fill, h } from '../dom.js'
import { grouped } from '../format.js'
import {
  type FrameSource,
  type RawStep,
  type SourceStep,
  type StepKind,
  callStack,
  createSourceStepAnnotator,
  stepTarget,
} from '../source/sourceSteps.js'

/** Steps fetched at a time to annotate (pc, op and depth only: each fetch is one replay of the transaction). */
export const SOURCE_CHUNK = 5000

/** The stepper's source level: the Solidity file at the current step, the call stack, step into / over / out. */
export type SourcePane = {
  readonly element: HTMLElement
  /** Shows step `step` (called by the stepper whenever its current step changes). */
  show(step: number): Promise<void>
}

const KEYS: Record<string, StepKind> = { s: 'into', n: 'over', f: 'out' }
const encoder = new TextEncoder()
const decoder = new TextDecoder()

/**
 * The source pane of the opcode stepper: annotates the trace's steps (fetched `SOURCE_CHUNK` at a time
 * from the start, as far as needed) with their source lines (createSourceStepAnnotator), shows the
 * current statement highlighted in its file and the call stack, and moves the stepper (`go`) by
 * source statement — buttons, and the keys s (into), n (over) and f (out) as a debugger's.
 */
export function createSourcePane(opts: {
  total: number
  /** What each frame of the step index runs (frameSources), in the index's order. */
  frames: readonly FrameSource[]
  fetchSteps: (offset: number, limit: number) => Promise<RawStep[]>
  go: (step: number) => void
}): SourcePane {
  let n = 0
  const annotator = createSourceStepAnnotator(() => opts.frames[n++] ?? { label: 'unknown frame' })
  const steps = annotator.steps
  let loading: Promise<void> = Promise.resolve()
  /** Annotates up to step `upTo` (or the next chunk when undefined). */
  const load = (upTo?: number) => {
    loading = loading.then(async () => {
      while (steps.length < opts.total && (upTo === undefined || steps.length <= upTo)) {
        const chunk = await opts.fetchSteps(steps.length, SOURCE_CHUNK)
        if (chunk.length === 0) break
        annotator.add(chunk)
        if (upTo === undefined) break
      }
    })
    return loading
  }
  let current = 0
  const status = h('span', { class: 'source-status muted', role: 'status' })
  const move = async (kind: StepKind) => {
    fill(status, `stepping ${kind}…`)
    try {
      await load(current)
      for (;;) {
        const target = stepTarget(kind, steps, current)
        if (target !== undefined) {
          fill(status)
          opts.go(target)
          return
        }
        if (steps.length >= opts.total) break
        await load()
      }
      fill(
        status,
        kind === 'out'
          ? 'no caller with a source line to step out to: this is the outermost function'
          : 'no later statement with a source line: the trace ends',
      )
    } catch (err) {
      fill(status, h('span', { class: 'error' }, `could not load steps: ${(err as Error).message}`))
    }
  }
  const button = (kind: StepKind, label: string, key: string, title: string) =>
    h(
      'button',
      { type: 'button', class: `step-${kind}`, title: `${title} (key ${key})`, onclick: () => void move(kind) },
      label,
    )
  const stack = h('ol', { class: 'call-stack', 'aria-label': 'call stack' })
  const where = h('div', { class: 'source-where' })
  const code = h('div', { class: 'source-code', tabindex: 0, 'aria-label': 'source file' })
  const element = h(
    'div',
    { class: 'source-pane' },
    h('h4', {}, 'Solidity source at this step'),
    h(
      'div',
      { class: 'source-controls' },
      button('into', '⤵ step into', 's', 'the next statement, into any call'),
      button('over', '↷ step over', 'n', 'the next statement of this function, its calls run through'),
      button('out', '⤴ step out', 'f', 'until this function returns'),
      h('span', { class: 'muted source-keys' }, 'keys: s into · n over · f out'),
      status,
    ),
    h('div', { class: 'source-panes' }, h('div', {}, h('h5', {}, 'call stack'), stack), h('div', {}, where, code)),
  )
  const onKey = (e: KeyboardEvent) => {
    if (!element.isConnected) {
      document.removeEventListener('keydown', onKey)
      return
    }
    const kind = KEYS[e.key]
    const target = e.target as HTMLElement | null
    if (!kind || e.ctrlKey || e.metaKey || e.altKey || target?.closest('input, textarea, select')) return
    e.preventDefault()
    void move(kind)
  }
  document.addEventListener('keydown', onKey)

  async function show(step: number) {
    current = step
    try {
      await load(step)
    } catch (err) {
      fill(where, h('p', { class: 'error' }, `could not load steps: ${(err as Error).message}`))
      return
    }
    if (current !== step) return
    const s = steps[step]
    if (!s) return
    fill(
      stack,
      callStack(s).map((e, i, all) =>
        h(
          'li',
          { class: `${e.kind}${i === all.length - 1 ? ' current' : ''}` },
          h('span', { class: 'fn' }, e.name),
          e.kind === 'internal' ? h('span', { class: 'muted' }, ' (internal)') : null,
          e.line !== undefined ? h('span', { class: 'muted' }, ` — ${e.file}:${e.line}`) : null,
        ),
      ),
    )
    renderSource(s)
    element.dataset.step = String(step)
  }

  function renderSource(s: SourceStep) {
    const file = s.at?.file ?? s.near?.file
    const line = s.at?.line ?? s.near?.line
    const text = file !== undefined ? s.frame.text?.(file) : undefined
    if (!s.frame.locator) {
      fill(
        where,
        h(
          'p',
          { class: 'muted' },
          `${s.frame.label}: no sources for this frame’s code (a creation’s init code, or a contract none of the page’s build outputs compiled)`,
        ),
      )
      code.replaceChildren()
      return
    }
    if (file === undefined || line === undefined || text === undefined) {
      fill(where, h('p', { class: 'muted' }, 'no source line yet (the contract’s dispatcher)'))
      code.replaceChildren()
      return
    }
    fill(
      where,
      h('strong', { class: 'source-file-name' }, file),
      ` line ${line}`,
      s.frame.gas ? h('span', { class: 'muted' }, ' · gas per line in this call, beside the line numbers') : null,
      s.at
        ? null
        : h(
            'span',
            { class: 'muted' },
            ' — this instruction has no line of its own (compiler-generated, or code the optimizer shares): its function was last here',
          ),
    )
    const lines = text.split('\n')
    let currentRow: HTMLElement | undefined
    const rows = lines.map((content, i) => {
      const number = i + 1
      const here = number === line
      let body: (Node | string)[] = [content]
      if (here && s.at && s.range) {
        // The statement's part of this line (the source map's offsets are UTF-8 bytes).
        const bytes = encoder.encode(content)
        const from = Math.min(s.at.column - 1, bytes.length)
        const to = Math.min(from + s.range.l, bytes.length)
        body = [
          decoder.decode(bytes.subarray(0, from)),
          h('mark', { class: 'statement' }, decoder.decode(bytes.subarray(from, to))),
          decoder.decode(bytes.subarray(to)),
        ]
      }
      const spent = s.frame.gas?.get(`${file}:${number}`)
      const row = h(
        'div',
        { class: `source-line${here ? (s.at ? ' current-line' : ' near-line') : ''}`, 'data-line': number },
        h('span', { class: 'line-number' }, number),
        s.frame.gas
          ? h(
              'span',
              { class: 'line-gas', title: spent ? `${grouped(spent)} gas in this call` : undefined },
              spent ? grouped(spent) : '',
            )
          : null,
        h('code', {}, ...body),
      )
      if (here) currentRow = row
      return row
    })
    code.replaceChildren(...rows)
    if (currentRow) code.scrollTop = Math.max(0, currentRow.offsetTop - code.clientHeight / 2)
  }

  return { element, show }
}
