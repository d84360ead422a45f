import { ServerRpcError } from '../../errors/rpc.js'
import { BlockNotFoundError } from '../../errors/state.js'
import { parseHash } from '../parsers.js'
import { optional, required } from '../params.js'
import { checkRange, modifiedInRange } from './modifiedInRange.js'
import { defineMethod } from '../defineMethod.js'

/** debug_getModifiedAccountsByHash(startHash, endHash = startHash): as ByNumber, by block hashes. */
export const getModifiedAccountsByHash = defineMethod({
  name: 'debug_getModifiedAccountsByHash',
  params: [required(parseHash), optional(parseHash)],
  async run(engine, [startHash, endHash], context): Promise<string[] | null> {
    const byHash = async (which: 'start' | 'end', hash: string) => {
      try {
        return await engine.headers.byHash(hash)
      } catch (err) {
        if (err instanceof BlockNotFoundError) throw new ServerRpcError(`${which} block ${hash.slice(2)} not found`)
        throw err
      }
    }
    const from = await byHash('start', startHash)
    const to = endHash ? await byHash('end', endHash) : from
    checkRange(from, to)
    return modifiedInRange(engine, from, to, context)
  },
})
