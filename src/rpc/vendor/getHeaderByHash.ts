import { ServerRpcError } from '../../errors/rpc.js'
import { BlockNotFoundError } from '../../errors/state.js'
import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseHash } from '../parsers.js'
import { formatErigonHeader } from './formatErigonHeader.js'

/**
 * erigon_getHeaderByHash(hash): the header that hashes to `hash` (checked here) in the reference's
 * shape; an unknown hash is its error `block header not found: 0x…`.
 */
export const getHeaderByHash = defineMethod({
  name: 'erigon_getHeaderByHash',
  params: [required(parseHash)],
  async run(engine, [hash]) {
    try {
      return formatErigonHeader((await engine.headers.byHash(hash)).header)
    } catch (err) {
      if (err instanceof BlockNotFoundError) throw new ServerRpcError(`block header not found: ${hash}`)
      throw err
    }
  },
})
