import { BorExtraDataError, recoverBorAuthor } from '../../chain/bor/borSeal.js'
import { ServerRpcError } from '../../errors/rpc.js'
import { defineMethod } from '../defineMethod.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { optional } from '../params.js'
import { borHeaderAt } from './borHeaderAt.js'

/**
 * sidechain_getAuthor(block = latest): the address that sealed the block, recovered from the seal at
 * the end of its verified header's extraData (the base fee sealed from Jaipur on).
 */
export const getAuthor = defineMethod({
  name: 'sidechain_getAuthor',
  params: [optional(parseBlockParameter)],
  async run(engine, [at]) {
    const header = await borHeaderAt(engine, at ?? { kind: 'tag', tag: 'latest' })
    try {
      return recoverBorAuthor(header.header, engine.rules.bor!.isJaipur(header.number))
    } catch (err) {
      if (err instanceof BorExtraDataError) throw new ServerRpcError(err.shortMessage, { cause: err })
      throw err
    }
  },
})
