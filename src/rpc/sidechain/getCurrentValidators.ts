import { defineMethod } from '../defineMethod.js'
import { jsonText, validatorJson } from './renderBorSnapshot.js'
import { snapshotFor } from './snapshotFor.js'

/** sidechain_getCurrentValidators(): the validators of the head's snapshot (ID, signer, power, accum). */
export const getCurrentValidators = defineMethod({
  name: 'sidechain_getCurrentValidators',
  params: [],
  async run(engine, _args, context) {
    const { validators } = (await snapshotFor(engine, undefined, context)).snapshot.validatorSet
    return jsonText(`[${validators.map(validatorJson).join(',')}]`)
  },
})
