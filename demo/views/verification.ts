import type { Counters } from '../connection.js'
import { h } from '../dom.js'
import { grouped, ms, short } from '../format.js'

/** What this answer cost and rests on: the block whose state root the state was proven against, and the counts. */
export function renderVerification(opts: {
  block: { number: bigint; hash: string; stateRoot: string } | undefined
  what: string
  /** Counters before and after the answer, and its time (explore.ts's measure). */
  measured: { before: Counters | undefined; after: Counters | undefined; elapsedMs: number }
  source: string
  /** Whether the answer read state (a block view reads headers and bodies only: no proofs to count). */
  readsState?: boolean
}): HTMLElement {
  const { before, after, elapsedMs } = opts.measured
  const d = (key: keyof Counters) => (before && after ? Number(after[key]) - Number(before[key]) : undefined)
  const proofs = (d('accountProofs') ?? 0) + (d('storageProofs') ?? 0) + (d('codes') ?? 0)
  const verified = after?.verified !== false
  // `--engine wasm`: the frames its interpreter ran, and those ethereumjs ran alone (struct logs, JS tracers).
  // A daemon that does not count them (older) gives NaN: nothing said.
  const wasmFrames = d('wasmFrames') || 0
  const wasmFallbacks = d('wasmFallbacks') || 0
  const engineNote =
    wasmFrames > 0 || wasmFallbacks > 0
      ? ` · engine wasm: ${grouped(wasmFrames)} frames in wasm${wasmFallbacks > 0 ? `, ${grouped(wasmFallbacks)} on ethereumjs` : ''}`
      : ''
  return h(
    'div',
    { class: `verification${verified ? '' : ' unverified'}` },
    h(
      'p',
      { class: 'verified-line' },
      verified
        ? '✔ verified against block '
        : '⚠ UNVERIFIED (the daemon runs with --unverified) — state read at block ',
      opts.block ? h('a', { href: `#/block/${opts.block.number}` }, String(opts.block.number)) : '?',
      opts.block
        ? [' (state root ', h('code', { title: opts.block.stateRoot }, short(opts.block.stateRoot, 8)), ')']
        : null,
      `: ${opts.what}`,
    ),
    before && after
      ? h(
          'p',
          { class: 'counts' },
          !verified || opts.readsState === false
            ? ''
            : proofs > 0
              ? `${grouped(proofs)} proofs checked (${d('accountProofs')} accounts, ${d('storageProofs')} storage slots, ${d('codes')} code hashes) · `
              : 'no new proofs: all state from the cache, each item proven when it was first fetched · ',
          `${grouped(d('cacheHits') ?? 0)} cache hits · ${grouped(d('upstreamRoundTrips') ?? 0)} upstream round trips (${grouped(d('upstreamRequests') ?? 0)} requests)${engineNote} · ${ms(elapsedMs)}`,
        )
      : h('p', { class: 'counts' }, `${ms(elapsedMs)} (this daemon does not report its counters)`),
    h('p', { class: 'muted source' }, `answered by ${opts.source}`),
  )
}
