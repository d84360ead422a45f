import { bytes } from '../../utils/hex.js'
import { defineMethod } from '../defineMethod.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { optional, required } from '../params.js'
import { parseAddress } from '../parsers.js'
import type { Hex } from '../../types/hex.js'
import { resolveStateBlock } from './resolveStateBlock.js'

/** eth_getCode(address, block = latest): the code, checked against the proven account's codeHash. */
export const getCode = defineMethod({
  name: 'eth_getCode',
  params: [required(parseAddress), optional(parseBlockParameter)],
  async run(engine, [address, selector]): Promise<Hex> {
    const block = await resolveStateBlock(engine, selector)
    return bytes(await engine.source.getCode(block, address))
  },
})
