import type { AnchoredBlock } from '../../chain/createHeaderStore.js'
import { quantity } from '../../utils/hex.js'
import { defineMethod } from '../defineMethod.js'

const block = (b: AnchoredBlock | null) =>
  b && {
    slot: quantity(b.slot),
    beaconRoot: b.beaconRoot,
    blockNumber: quantity(b.blockNumber),
    blockHash: b.blockHash,
  }

/**
 * edgetrace_trust(): which trust mode answers and what anchors it — `consensus` (a beacon light
 * client: its checkpoint root, beacon node, finalized and optimistic blocks, committee period and
 * signers), `checkpoint` (the trusted block hash numbers link to) or `upstream` (its word). Slots and
 * numbers are quantities.
 */
export const trust = defineMethod({
  name: 'edgetrace_trust',
  params: [],
  async run(engine) {
    const report = await engine.headers.trust()
    return {
      mode: report.mode,
      checkpoint: report.checkpoint,
      // Where the anchor knows how its checkpoint came (the browser's pin): taken on first use or given.
      ...(report.trustedOnFirstUse !== undefined ? { trustedOnFirstUse: report.trustedOnFirstUse } : {}),
      beaconNode: report.beaconNode,
      finalized: block(report.finalized),
      optimistic: block(report.optimistic),
      syncCommitteePeriod: report.syncCommitteePeriod === null ? null : quantity(report.syncCommitteePeriod),
      participation: report.participation,
    }
  },
})
