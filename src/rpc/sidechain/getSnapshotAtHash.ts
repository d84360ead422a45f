import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseHash } from '../parsers.js'
import { jsonText, snapshotJson } from './renderBorSnapshot.js'
import { snapshotFor } from './snapshotFor.js'

/** sidechain_getSnapshotAtHash(hash): the validator snapshot after the block with that hash. */
export const getSnapshotAtHash = defineMethod({
  name: 'sidechain_getSnapshotAtHash',
  params: [required(parseHash)],
  async run(engine, [hash], context) {
    return jsonText(
      snapshotJson((await snapshotFor(engine, { kind: 'hash', hash, requireCanonical: false }, context)).snapshot),
    )
  },
})
