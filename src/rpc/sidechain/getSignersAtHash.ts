import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseHash } from '../parsers.js'
import { snapshotFor } from './snapshotFor.js'

/** sidechain_getSignersAtHash(hash): the signers of the snapshot after the block with that hash. */
export const getSignersAtHash = defineMethod({
  name: 'sidechain_getSignersAtHash',
  params: [required(parseHash)],
  async run(engine, [hash], context) {
    return (
      await snapshotFor(engine, { kind: 'hash', hash, requireCanonical: false }, context)
    ).snapshot.validatorSet.validators.map((v) => v.address)
  },
})
