import type { BlockSelector } from '../../types/blockSelector.js'
import { quantity } from '../../utils/hex.js'
import { defineMethod } from '../defineMethod.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { ParamError, optional } from '../params.js'

/** rpc.BlockNumber: a tag, a hex or decimal number (string or bare JSON number); no hash, no object. */
export function parseBlockNumberArg(raw: unknown): BlockSelector {
  if (typeof raw === 'object' && raw !== null)
    throw new ParamError('json: cannot unmarshal object into Go value of type string')
  const selector = parseBlockParameter(raw)
  if (selector.kind === 'hash') throw new ParamError('hex number > 64 bits')
  return selector
}

/**
 * erigon_blockNumber(tag?): the reference daemon's choice of block — `earliest` is 0, `safe` and
 * `finalized` the upstream's (verified) blocks of those tags; anything else, or nothing, the latest
 * block (the reference's "latest executed": edgetrace executes what the upstream has, so it is the head).
 */
export const blockNumber = defineMethod({
  name: 'erigon_blockNumber',
  params: [optional(parseBlockNumberArg)],
  async run(engine, [selector]) {
    if (selector?.kind === 'tag' && selector.tag === 'earliest') return quantity(0n)
    const which: BlockSelector =
      selector?.kind === 'tag' && (selector.tag === 'safe' || selector.tag === 'finalized')
        ? selector
        : { kind: 'tag', tag: 'latest' }
    return quantity((await engine.headers.resolve(which)).number)
  },
})
