import { proposerOf } from '../../chain/bor/borValidatorSet.js'
import { defineMethod } from '../defineMethod.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { optional } from '../params.js'
import { parentSnapshotFor } from './snapshotFor.js'

const ZERO_ADDRESS = `0x${'00'.repeat(20)}`

/** sidechain_getSnapshotProposer(block = latest): the in-turn signer of the block (its parent snapshot's proposer). */
export const getSnapshotProposer = defineMethod({
  name: 'sidechain_getSnapshotProposer',
  params: [optional(parseBlockParameter)],
  async run(engine, [at], context) {
    return proposerOf((await parentSnapshotFor(engine, at, context)).snapshot.validatorSet)?.address ?? ZERO_ADDRESS
  },
})
