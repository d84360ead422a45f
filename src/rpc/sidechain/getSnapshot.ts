import { defineMethod } from '../defineMethod.js'
import { parseBlockNumber } from '../parseBlockParameter.js'
import { optional } from '../params.js'
import { jsonText, snapshotJson } from './renderBorSnapshot.js'
import { snapshotFor } from './snapshotFor.js'

/** sidechain_getSnapshot(number = latest): the validator snapshot after the block, rebuilt from verified headers. */
export const getSnapshot = defineMethod({
  name: 'sidechain_getSnapshot',
  params: [optional(parseBlockNumber)],
  async run(engine, [at], context) {
    return jsonText(snapshotJson((await snapshotFor(engine, at, context)).snapshot))
  },
})
