import { defineMethod } from '../defineMethod.js'
import { parseBlockNumber } from '../parseBlockParameter.js'
import { optional } from '../params.js'
import { snapshotFor } from './snapshotFor.js'

/** sidechain_getSigners(number = latest): the snapshot's validators' addresses, in the set's order (by address). */
export const getSigners = defineMethod({
  name: 'sidechain_getSigners',
  params: [optional(parseBlockNumber)],
  async run(engine, [at], context) {
    return (await snapshotFor(engine, at, context)).snapshot.validatorSet.validators.map((v) => v.address)
  },
})
