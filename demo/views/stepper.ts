import type { StorageVariable } from '../../src/sources/decodeStorage.js'
import { fill, h } from '../dom.js'
import { grouped, short } from '../format.js'
import type { StepIndex, StructLog } from '../traceTypes.js'
import { stepStorageRows } from '../source/stepStorage.js'
import type { SourcePane } from './sourcePane.js'

/** The storage variables a step's account has, by slot: `(step, depth)` → slot → its variables. */
export type StorageNames = (step: number, depth: number) => ReadonlyMap<string, readonly StorageVariable[]> | undefined

export const PAGE_STEPS = 50

/**
 * The opcode stepper: one page of struct logs at a time (asked for with `offset`/`limit`, never the
 * whole trace), a step's stack, memory and storage, and jumps — to where each frame starts, and to
 * the next SSTORE, REVERT, LOG or failing step — from the trace's step index.
 */
export function renderStepper(
  index: StepIndex,
  fetchPage: (offset: number, limit: number) => Promise<StructLog[]>,
  /** The source level, when the page has sources (createSourcePane): told each step shown, it moves the stepper by `go`. */
  sourcePane?: (go: (step: number) => void) => SourcePane,
  /**
   * The storage variables of the account whose storage a step at a depth runs on, by slot (from the
   * source tracer: namedSlots of the step's storage context), when they come: the storage column
   * then names its slots (the raw slot on hover).
   */
  storageNames?: Promise<StorageNames | undefined>,
) {
  const pages = new Map<number, Promise<StructLog[]>>()
  const page = (n: number) => {
    let p = pages.get(n)
    if (!p) {
      p = fetchPage(n * PAGE_STEPS, PAGE_STEPS)
      p.catch(() => pages.delete(n))
      pages.set(n, p)
    }
    return p
  }
  let current = 0
  let names: StorageNames | undefined
  const status = h('span', { class: 'step-status' })
  const table = h('div', { class: 'step-table' })
  const detail = h('div', { class: 'step-detail' })
  const goInput = h('input', {
    type: 'number',
    min: 0,
    max: Math.max(index.steps - 1, 0),
    value: 0,
    class: 'go',
    'aria-label': 'step number',
  })

  async function show(step: number) {
    if (index.steps === 0) return
    current = Math.min(Math.max(step, 0), index.steps - 1)
    goInput.value = String(current)
    void source?.show(current)
    const n = Math.floor(current / PAGE_STEPS)
    fill(status, `step ${grouped(current)} of ${grouped(index.steps)} · loading…`)
    let logs: StructLog[]
    try {
      logs = await page(n)
    } catch (err) {
      fill(status, h('span', { class: 'error' }, `could not load steps: ${(err as Error).message}`))
      return
    }
    if (Math.floor(current / PAGE_STEPS) !== n) return // moved on meanwhile
    fill(
      status,
      `step ${grouped(current)} of ${grouped(index.steps)} · page ${n + 1} of ${Math.ceil(index.steps / PAGE_STEPS)}`,
    )
    fill(
      table,
      h(
        'table',
        { class: 'steps' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['#', 'pc', 'op', 'gas', 'cost', 'depth'].map((t) => h('th', {}, t)),
          ),
        ),
        h(
          'tbody',
          {},
          logs.map((log, i) => {
            const at = n * PAGE_STEPS + i
            return h(
              'tr',
              {
                class: `${at === current ? 'current' : ''}${log.error ? ' failed' : ''}`,
                'data-step': at,
                onclick: () => void show(at),
              },
              h('td', {}, at),
              h('td', {}, log.pc),
              h('td', { class: 'op' }, log.op),
              h('td', {}, grouped(log.gas)),
              h('td', {}, log.gasCost),
              h('td', {}, log.depth),
            )
          }),
        ),
      ),
    )
    table.querySelector('tr.current')?.scrollIntoView({ block: 'nearest' })
    const log = logs[current - n * PAGE_STEPS]
    if (!log) return
    fill(
      detail,
      h('h4', {}, `step ${current}: `, h('span', { class: 'op' }, log.op), ` at pc ${log.pc}, depth ${log.depth}`),
      log.error ? h('p', { class: 'error' }, `✖ ${log.error}`) : null,
      h(
        'p',
        {},
        `gas left ${grouped(log.gas)}, this step costs ${log.gasCost}${log.refund ? `, refund counter ${log.refund}` : ''}`,
      ),
      h('h5', {}, `stack (${log.stack?.length ?? 0}, top first)`),
      h(
        'ol',
        { class: 'stack', start: 0 },
        [...(log.stack ?? [])].reverse().map((v) => h('li', {}, h('code', {}, v))),
      ),
      h('h5', {}, `memory (${(log.memory?.length ?? 0) * 32} bytes)`),
      log.memory?.length
        ? h(
            'div',
            { class: 'memory' },
            log.memory.map((w, i) =>
              h(
                'div',
                {},
                h('span', { class: 'muted' }, `0x${(i * 32).toString(16).padStart(4, '0')} `),
                h('code', {}, w),
              ),
            ),
          )
        : h('p', { class: 'muted' }, 'empty'),
      h('h5', {}, 'storage (slots this contract has read or written so far)'),
      log.storage && Object.keys(log.storage).length > 0
        ? h(
            'table',
            { class: 'storage' },
            stepStorageRows(log.storage, names?.(current, log.depth)).map((r) =>
              r.named
                ? h(
                    'tr',
                    { class: 'named' },
                    h('td', {}, h('code', { class: 'variable', title: `slot ${r.slot}: ${r.word}` }, r.name)),
                    h('td', {}, h('code', { title: r.word }, r.value)),
                  )
                : h(
                    'tr',
                    {},
                    h('td', {}, h('code', { title: r.slot }, short(r.slot, 10))),
                    h('td', {}, h('code', {}, r.value)),
                  ),
            ),
          )
        : h('p', { class: 'muted' }, 'none yet'),
    )
  }

  const next = (list: number[]) => () => {
    const found = list.find((s) => s > current) ?? list[0]
    if (found !== undefined) void show(found)
  }
  const jumpButton = (label: string, list: number[]) =>
    h('button', { type: 'button', disabled: list.length === 0, onclick: next(list) }, `${label} (${list.length})`)
  const frames = h(
    'select',
    {
      'aria-label': 'jump to a frame',
      onchange: (e: Event) => void show(Number((e.target as HTMLSelectElement).value)),
    },
    h('option', { value: 0 }, `jump to a frame start (${index.frames.length + 1})…`),
    h('option', { value: 0 }, 'step 0: the transaction starts (depth 1)'),
    index.frames
      .filter(([, depth]) => depth > 1)
      .map(([step, depth, address]) =>
        h('option', { value: step }, `step ${step}: depth ${depth}, ${short(address, 6)}`),
      ),
  )
  const controls = h(
    'div',
    { class: 'step-controls' },
    h('button', { type: 'button', onclick: () => void show(current - PAGE_STEPS) }, '◀◀ page'),
    h('button', { type: 'button', onclick: () => void show(current - 1) }, '◀ step'),
    h('button', { type: 'button', onclick: () => void show(current + 1) }, 'step ▶'),
    h('button', { type: 'button', onclick: () => void show(current + PAGE_STEPS) }, 'page ▶▶'),
    ' go to ',
    goInput,
    h('button', { type: 'button', onclick: () => void show(Number(goInput.value)) }, 'go'),
    ' ',
    frames,
    ' next: ',
    jumpButton('SSTORE', index.sstore),
    jumpButton('REVERT', index.revert),
    jumpButton('LOG', index.log),
    jumpButton('error', index.error),
  )
  const source = sourcePane?.((step) => void show(step))
  const root = h(
    'div',
    { class: 'stepper' },
    source?.element,
    controls,
    status,
    h('div', { class: 'step-panes' }, table, detail),
  )
  if (index.steps === 0) fill(status, 'No opcodes ran (a plain transfer, or a call to an account without code).')
  else void show(0)
  // Storage by variable once the source tracer's names are here: the step shown is shown again with them.
  void storageNames?.then(
    (given) => {
      if (!given) return
      names = given
      root.dataset.storageNames = '1'
      if (index.steps > 0) void show(current)
    },
    () => undefined,
  )
  return root
}
