import { ServerRpcError } from '../../errors/rpc.js'
import { parseJsonInteger } from '../debug/accountAt.js'
import { defineMethod } from '../defineMethod.js'
import { ParamError, required } from '../params.js'
import { borHeaderAt } from './borHeaderAt.js'

/** A Go string argument. */
function parseString(raw: unknown): string {
  if (typeof raw !== 'string')
    throw new ParamError(`json: cannot unmarshal ${JSON.stringify(raw)} into Go value of type string`)
  return raw
}

/** Blocks a milestone's end must be confirmed by before a vote on it is given. */
const TIP_CONFIRMATIONS = 16n

/**
 * sidechain_getVoteOnHash(start, end, hash, milestoneId): whether the verified block `end` is `hash`
 * (the reference's newer semantics: a plain comparison, no error on a mismatch), once block end+16
 * exists; `failed to get tip confirmation block` / `failed to get end block` otherwise.
 */
export const getVoteOnHash = defineMethod({
  name: 'sidechain_getVoteOnHash',
  params: [required(parseJsonInteger), required(parseJsonInteger), required(parseString), required(parseString)],
  async run(engine, [, endNumber, hash]) {
    const end = BigInt(endNumber)
    const head = await borHeaderAt(engine, { kind: 'tag', tag: 'latest' })
    if (end + TIP_CONFIRMATIONS > head.number) throw new ServerRpcError('failed to get tip confirmation block')
    const block = await borHeaderAt(engine, { kind: 'number', number: end }).catch((err: unknown) => {
      throw new ServerRpcError('failed to get end block', { cause: err })
    })
    return block.hash === hash.toLowerCase()
  },
})
