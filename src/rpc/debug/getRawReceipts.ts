import { bytesToHex } from '@ethereumjs/util'
import { ServerRpcError } from '../../errors/rpc.js'
import { BlockNotFoundError } from '../../errors/state.js'
import { required } from '../params.js'
import { parseBlockNumberOrHashStrict, rawBlockHeader, where } from './rawBlockHeader.js'
import { fetchVerifiedReceipts } from './fetchVerifiedReceipts.js'
import { defineMethod } from '../defineMethod.js'

/**
 * debug_getRawReceipts(block): the block's receipts, EIP-2718-encoded, from the upstream's receipts
 * encoded here and checked against the verified header's receiptsRoot (fetchVerifiedReceipts).
 */
export const getRawReceipts = defineMethod({
  name: 'debug_getRawReceipts',
  params: [required(parseBlockNumberOrHashStrict)],
  async run(engine, [selector]): Promise<string[]> {
    const verified = await rawBlockHeader(engine, selector, 'block')
    try {
      return (await fetchVerifiedReceipts(engine, verified)).map((b) => bytesToHex(b))
    } catch (err) {
      if (err instanceof BlockNotFoundError) throw new ServerRpcError(`block #${where(selector)} not found`)
      throw err
    }
  },
})
