import { defineMethod } from '../defineMethod.js'
import { verifiedBlockAt } from '../eth/verifiedBlockAt.js'
import { required } from '../params.js'
import { blockDetails } from './blockDetails.js'
import { parseOtsBlockNumber } from './parseOtsBlockNumber.js'

/**
 * ots_getBlockDetails(number): the verified block without its transactions, its issuance and total
 * fees (see blockDetails); null when the upstream does not know the block, as the reference.
 */
export const getBlockDetails = defineMethod({
  name: 'ots_getBlockDetails',
  params: [required(parseOtsBlockNumber)],
  async run(engine, [selector]): Promise<Record<string, unknown> | null> {
    const verified = await verifiedBlockAt(engine, selector)
    return verified && blockDetails(engine, verified)
  },
})
