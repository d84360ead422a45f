import { proposerOf } from '../../chain/bor/borValidatorSet.js'
import { defineMethod } from '../defineMethod.js'
import { snapshotFor } from './snapshotFor.js'

const ZERO_ADDRESS = `0x${'00'.repeat(20)}`

/** sidechain_getCurrentProposer(): the proposer of the head's snapshot. */
export const getCurrentProposer = defineMethod({
  name: 'sidechain_getCurrentProposer',
  params: [],
  async run(engine, _args, context) {
    return proposerOf((await snapshotFor(engine, undefined, context)).snapshot.validatorSet)?.address ?? ZERO_ADDRESS
  },
})
