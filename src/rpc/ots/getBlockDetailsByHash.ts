import { hexToBytes } from '@ethereumjs/util'
import { ServerRpcError } from '../../errors/rpc.js'
import { defineMethod } from '../defineMethod.js'
import { verifiedBlockAt } from '../eth/verifiedBlockAt.js'
import { required } from '../params.js'
import { parseHash } from '../parsers.js'
import { blockDetails } from './blockDetails.js'

/**
 * ots_getBlockDetailsByHash(hash): as ots_getBlockDetails, for the block that hashes to `hash`. A hash
 * the upstream does not know is the reference's error, its words included: the hash printed as Go
 * prints a byte slice with %v (`couldn't find block number for hash [18 52 …]`).
 */
export const getBlockDetailsByHash = defineMethod({
  name: 'ots_getBlockDetailsByHash',
  params: [required(parseHash)],
  async run(engine, [hash]): Promise<Record<string, unknown>> {
    const verified = await verifiedBlockAt(engine, { kind: 'hash', hash, requireCanonical: false })
    if (!verified) throw new ServerRpcError(`couldn't find block number for hash [${hexToBytes(hash).join(' ')}]`)
    return blockDetails(engine, verified)
  },
})
