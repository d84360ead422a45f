import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseHash } from '../parsers.js'
import { headerByHash, verifiedBlockReceipts } from './blockReceipts.js'

/**
 * erigon_getLogsByHash(hash): the block's logs, one list per transaction (null for one without logs;
 * eth's log shape), from
 * receipts checked against receiptsRoot; null for a block the upstream does not know (the reference's answer).
 */
export const getLogsByHash = defineMethod({
  name: 'erigon_getLogsByHash',
  params: [required(parseHash)],
  async run(engine, [hash]) {
    const header = await headerByHash(engine, hash)
    if (!header) return null
    // A transaction without logs is null in the reference's list (a nil Go slice), not [].
    return (await verifiedBlockReceipts(engine, header)).map((r) => ((r.logs as unknown[]).length > 0 ? r.logs : null))
  },
})
