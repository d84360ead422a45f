import { ServerRpcError } from '../../errors/rpc.js'
import { BlockNotFoundError } from '../../errors/state.js'
import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseBlockNumberArg } from './blockNumber.js'
import { formatErigonHeader } from './formatErigonHeader.js'

/**
 * erigon_getHeaderByNumber(block): the verified header (hashed here) in the reference's shape;
 * `pending` is null (edgetrace has no pending block), a block the upstream does not have is the
 * reference's error `block header not found: N`.
 */
export const getHeaderByNumber = defineMethod({
  name: 'erigon_getHeaderByNumber',
  params: [required(parseBlockNumberArg)],
  async run(engine, [selector]) {
    if (selector.kind === 'tag' && selector.tag === 'pending') return null
    try {
      return formatErigonHeader((await engine.headers.resolve(selector)).header)
    } catch (err) {
      if (err instanceof BlockNotFoundError) {
        const n = selector.kind === 'number' ? selector.number : selector.kind === 'tag' ? selector.tag : ''
        throw new ServerRpcError(`block header not found: ${n}`)
      }
      throw err
    }
  },
})
