import { defineNamespace } from '../defineNamespace.js'
import { borSigners } from './borSigners.js'
import { previewTransactions } from './previewTransactions.js'
import { previewTypedData } from './previewTypedData.js'
import { touchingBlocks } from './touchingBlocks.js'
import { trust } from './trust.js'

/**
 * edgetrace's own namespace: what it says of itself that a client needs to judge its answers (which
 * trust mode answers). Served on every listener whatever `--http.api` names: it holds no chain state
 * of its own and discloses nothing but what anchors the answers. edgetrace_previewTransactions reads
 * state as eth_call does: it is served wherever `eth` is (`servedWith`). edgetrace_touchingBlocks (a
 * stretch of an ots search's scan) and edgetrace_borSigners (the signers of a stretch of a Bor
 * snapshot walk) are served only on a range worker's daemon (`forRangeWorkers`).
 */
export const edgetraceNamespace = defineNamespace({
  name: 'edgetrace',
  summary:
    "edgetrace_trust: which trust mode answers and what anchors it (every listener); edgetrace_previewTransactions: a wallet's preview of calls, edgetrace_previewTypedData: what a typed-data signature would allow (with eth)",
  methods: [trust, previewTransactions, previewTypedData, touchingBlocks, borSigners],
  alwaysServed: true,
})
