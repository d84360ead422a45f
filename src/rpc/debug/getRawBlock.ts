import { bytesToHex } from '@ethereumjs/util'
import { fetchVerifiedBlock } from '../../exec/fetchVerifiedBlock.js'
import { ServerRpcError } from '../../errors/rpc.js'
import { BlockNotFoundError } from '../../errors/state.js'
import { required } from '../params.js'
import { parseBlockNumberOrHashStrict, rawBlockHeader, where } from './rawBlockHeader.js'
import { defineMethod } from '../defineMethod.js'

/**
 * debug_getRawBlock(block): the block's RLP (header, transactions, uncles, withdrawals), built from
 * the upstream's block and checked against the verified header: transactions root, uncles hash and
 * withdrawals root must match (fetchVerifiedBlock).
 */
export const getRawBlock = defineMethod({
  name: 'debug_getRawBlock',
  params: [required(parseBlockNumberOrHashStrict)],
  async run(engine, [selector]): Promise<string> {
    const verified = await rawBlockHeader(engine, selector, 'block')
    try {
      return bytesToHex((await fetchVerifiedBlock(engine, verified)).block.serialize())
    } catch (err) {
      if (err instanceof BlockNotFoundError) throw new ServerRpcError(`block #${where(selector)} not found`)
      throw err
    }
  },
})
