import { pendingState } from '../../exec/txpool/pendingState.js'
import type { BlockSelector } from '../../types/blockSelector.js'
import { bytesToHex } from '@ethereumjs/util'
import { type CallResult, executeCall } from '../../exec/executeCall.js'
import { prepareCall } from '../../exec/prepareCall.js'
import { ExecutionRevertedRpcError, ServerRpcError } from '../../errors/rpc.js'
import { decodeRevertReason } from '../../utils/decodeRevertReason.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { parseCallArgs } from '../parseCallArgs.js'
import { parseBlockOverrides, parseStateOverrides } from '../parseOverrides.js'
import { optional, required } from '../params.js'
import { defineMethod } from '../defineMethod.js'
import type { Hex } from '../../types/hex.js'

/** A failed call as eth_call reports it: code 3 with the revert data, or -32000 with geth's error. */
export function throwIfFailed(result: CallResult): void {
  if (result.outcome.status === 'reverted') {
    throw new ExecutionRevertedRpcError(decodeRevertReason(result.returnValue), bytesToHex(result.returnValue))
  }
  if (result.outcome.status === 'failed') throw new ServerRpcError(result.outcome.message)
}

/**
 * eth_call(call, block = latest, stateOverrides?, blockOverrides?): executed locally on the verified
 * state of that block.
 */
/** The `pending` tag: the head's state with the pool's pending transactions applied (pendingState). */
export const isPending = (selector: BlockSelector | undefined): boolean =>
  selector?.kind === 'tag' && selector.tag === 'pending'

export const call = defineMethod({
  name: 'eth_call',
  params: [
    required(parseCallArgs),
    optional(parseBlockParameter),
    optional(parseStateOverrides),
    optional(parseBlockOverrides),
  ],
  async run(engine, [args, selector, stateOverrides, blockOverrides]): Promise<Hex> {
    const block = await prepareCall(engine, args, selector ?? { kind: 'tag', tag: 'latest' })
    const pending = isPending(selector) ? await pendingState(engine, block) : undefined
    const result = await executeCall(engine, { args, block, stateOverrides, blockOverrides, baseState: pending?.state })
    throwIfFailed(result)
    const limit = engine.options.returnDataLimit
    if (limit > 0 && result.returnValue.length > limit) {
      throw new ServerRpcError(
        `call returned result on length ${result.returnValue.length} exceeding --rpc.returndata.limit ${limit}`,
      )
    }
    return bytesToHex(result.returnValue) as Hex
  },
})
