import { h } from '../dom.js'
import { short } from '../format.js'

/** An anchored block as edgetrace_trust reports it (quantities as hex). */
type Anchored = { slot: string; beaconRoot: string; blockNumber: string; blockHash: string }

/** edgetrace_trust's answer. */
export type TrustReport = {
  mode: 'consensus' | 'checkpoint' | 'upstream'
  checkpoint: string | null
  trustedOnFirstUse?: boolean
  beaconNode?: string | null
  finalized: Anchored | null
  optimistic: Anchored | null
  syncCommitteePeriod: string | null
  participation: { signed: number; of: number } | null
}

const num = (q: string) => BigInt(q).toString()
const hash = (value: string) => h('code', { title: value }, short(value, 8))

/**
 * Which block is real, as the daemon answering says (edgetrace_trust): in consensus mode the
 * finalized slot and how much of the sync committee signed the head, the checkpoint it started from;
 * in checkpoint mode the block hash numbers link to; in upstream mode a red warning that blocks are
 * the upstream's word, and how to anchor them — a server's flags, or this page's beacon node field
 * when the daemon answering is the one in this browser (`answeredBy`). `failure`: why the daemon
 * could not say (an older daemon, a lying beacon node).
 */
export function renderTrustPanel(
  report: TrustReport | undefined,
  failure?: string,
  answeredBy: 'server' | 'browser' = 'server',
): HTMLElement {
  if (!report)
    return h(
      'section',
      { id: 'trust', class: 'trust trust-unknown' },
      h('strong', {}, 'Which block is real: unknown. '),
      failure ? `edgetrace_trust: ${failure}` : 'asking…',
    )
  if (report.mode === 'consensus' && report.finalized && report.optimistic) {
    const { finalized, optimistic, participation } = report
    return h(
      'section',
      { id: 'trust', class: 'trust trust-consensus' },
      h(
        'p',
        { class: 'trust-line' },
        h('strong', {}, '✔ Anchored in consensus: '),
        h('span', { class: 'trust-finalized' }, `finalized slot ${num(finalized.slot)}`),
        participation
          ? [', ', h('span', { class: 'trust-signatures' }, `${participation.signed}/${participation.of} signatures`)]
          : null,
        ` · head slot ${num(optimistic.slot)} (block `,
        h('a', { href: `#/block/${num(optimistic.blockNumber)}` }, num(optimistic.blockNumber)),
        `) · finalized block `,
        h('a', { href: `#/block/${num(finalized.blockNumber)}` }, num(finalized.blockNumber)),
      ),
      h(
        'p',
        { class: 'trust-detail muted' },
        'a light client of the beacon chain checks the sync committee’s signatures; blocks are the ones it signed and their ancestors. Checkpoint ',
        report.checkpoint ? h('span', { class: 'trust-checkpoint' }, hash(report.checkpoint)) : '?',
        report.trustedOnFirstUse
          ? h('span', { class: 'error' }, ' (trusted on first use: nothing vouched for it)')
          : null,
        report.beaconNode ? [' · beacon node ', h('code', {}, report.beaconNode)] : null,
      ),
    )
  }
  if (report.mode === 'checkpoint')
    return h(
      'section',
      { id: 'trust', class: 'trust trust-checkpoint-mode' },
      h(
        'p',
        { class: 'trust-line' },
        h('strong', {}, 'Anchored by a checkpoint: '),
        'blocks asked by number or tag must link by parent hashes to ',
        report.checkpoint ? h('span', { class: 'trust-checkpoint' }, hash(report.checkpoint)) : '?',
      ),
      h(
        'p',
        { class: 'trust-detail muted' },
        'this proves descent from the checkpoint, not that a block above it is the real chain’s.',
      ),
    )
  return h(
    'section',
    { id: 'trust', class: 'trust trust-upstream' },
    h(
      'p',
      { class: 'trust-line' },
      h('strong', {}, '⚠ Blocks are the upstream’s word: '),
      'state is proven against each block’s header, but which block is real (latest, or number N) is taken from the upstream unchecked — trust mode upstream.',
    ),
    h(
      'p',
      { class: 'trust-detail' },
      answeredBy === 'browser'
        ? 'Anchor it with a beacon node above (a light client of its sync committee runs in this page), and a checkpoint root if you have one; on the devnet, npm start -- --devnet.beacon prefills it.'
        : 'Anchor it with --beacon.upstream (a beacon light client) or --checkpoint; on the devnet, npm start -- --devnet.beacon.',
    ),
  )
}
