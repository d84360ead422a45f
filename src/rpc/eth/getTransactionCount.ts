import { quantity } from '../../utils/hex.js'
import { defineMethod } from '../defineMethod.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { optional, required } from '../params.js'
import { parseAddress } from '../parsers.js'
import type { Hex } from '../../types/hex.js'
import { resolveStateBlock } from './resolveStateBlock.js'

/** eth_getTransactionCount(address, block = latest): the nonce proven against the block's stateRoot. */
export const getTransactionCount = defineMethod({
  name: 'eth_getTransactionCount',
  params: [required(parseAddress), optional(parseBlockParameter)],
  async run(engine, [address, selector]): Promise<Hex> {
    const block = await resolveStateBlock(engine, selector)
    return quantity((await engine.source.getAccount(block, address))?.nonce ?? 0n)
  },
})
