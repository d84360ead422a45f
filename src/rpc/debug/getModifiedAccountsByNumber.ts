import { ServerRpcError } from '../../errors/rpc.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { optional, required } from '../params.js'
import { checkRange, modifiedInRange } from './modifiedInRange.js'
import { defineMethod } from '../defineMethod.js'

/**
 * debug_getModifiedAccountsByNumber(start, end = start): the addresses whose state changed in blocks
 * start…end, both included (Erigon's semantics: unlike geth, the changes made in `start` count),
 * sorted; null when none.
 */
export const getModifiedAccountsByNumber = defineMethod({
  name: 'debug_getModifiedAccountsByNumber',
  params: [required(parseBlockParameter), optional(parseBlockParameter)],
  async run(engine, [start, end], context): Promise<string[] | null> {
    const latest = await engine.headers.resolve({ kind: 'tag', tag: 'latest' })
    const resolve = async (which: 'start' | 'end', selector: typeof start) => {
      if (selector.kind === 'number' && selector.number > latest.number) {
        throw new ServerRpcError(
          `${which} block (${selector.number}) is later than the latest block (${latest.number})`,
        )
      }
      return engine.headers.resolve(selector)
    }
    const from = await resolve('start', start)
    const to = end ? await resolve('end', end) : from
    checkRange(from, to)
    return modifiedInRange(engine, from, to, context)
  },
})
