import { GAS_PER_BLOB } from '../../utils/gasPerBlob.js'
import { pendingState } from '../../exec/txpool/pendingState.js'
import { isPending } from './call.js'
import { createAddressFromString } from '@ethereumjs/util'
import { applyStateOverrides } from '../../exec/applyStateOverrides.js'
import { callGasLimit, executeCall } from '../../exec/executeCall.js'
import { prepareCall } from '../../exec/prepareCall.js'
import { ServerRpcError } from '../../errors/rpc.js'
import { createOverlayStateManager } from '../../state/createOverlayStateManager.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { parseCallArgs } from '../parseCallArgs.js'
import { parseStateOverrides } from '../parseOverrides.js'
import { optional, required } from '../params.js'
import { throwIfFailed } from './call.js'
import { defineMethod } from '../defineMethod.js'
import type { Hex } from '../../types/hex.js'
import { quantity } from '../../utils/hex.js'

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'

const CALL_STIPEND = 2300n
const TX_GAS = 21000n
/** EIP-7825's cap on a transaction's gas (2^24), from Osaka on. */
const EIP7825_MAX_TX_GAS = 16_777_216n
/**
 * eth_estimateGas(call, block = latest, stateOverrides?): the least gas limit the call succeeds
 * with, found as the reference daemon finds it (Erigon's EstimateGas): a binary search down to the
 * exact least gas, unless --rpc.gasestimate.errorratio lets it stop early (geth's 0.015: stop once
 * the window is within that fraction of the answer). The ceiling is the call's gas (else the
 * block's gas limit), under EIP-7825's cap from Osaka on, what the sender's balance can buy and
 * --rpc.gascap. A plain transfer to an account without code is tried at 21000 first. Otherwise: one
 * run at the ceiling, whose peak gas (before the refund) less one is the floor (Erigon's), an
 * optimistic guess from that peak (geth's), then binary search. Every probe reuses the state the
 * first run fetched, so only the first run costs upstream requests.
 */
export const estimateGas = defineMethod({
  name: 'eth_estimateGas',
  params: [required(parseCallArgs), optional(parseBlockParameter), optional(parseStateOverrides)],
  async run(engine, [args, selector, stateOverrides]): Promise<Hex> {
    const block = await prepareCall(engine, args, selector ?? { kind: 'tag', tag: 'latest' })
    // `pending`: every probe runs on the pool's pending state, each undone after it.
    const pending = isPending(selector) ? (await pendingState(engine, block))?.state : undefined
    const run = async (gasLimit: bigint) => {
      if (!pending) return executeCall(engine, { args, block, gasLimit, stateOverrides })
      await pending.checkpoint()
      try {
        return await executeCall(engine, { args, block, gasLimit, stateOverrides, baseState: pending })
      } finally {
        await pending.revert()
      }
    }
    const succeeds = (gasLimit: bigint) =>
      run(gasLimit).then(
        (r) => r.outcome.status === 'success',
        () => false,
      )
    const state = createOverlayStateManager({ source: engine.source, block })
    if (stateOverrides) await applyStateOverrides(state, stateOverrides)

    let hi = args.gas !== undefined && args.gas >= TX_GAS ? args.gas : block.header.gasLimit
    const common = block.header.common
    if (common.isActivatedEIP(7825) && !common.isActivatedEIP(8037)) {
      if (hi > EIP7825_MAX_TX_GAS) hi = EIP7825_MAX_TX_GAS
    }
    // With a fee, the sender's balance bounds the gas it can buy.
    const feeCap = args.maxFeePerGas ?? args.gasPrice ?? 0n
    if (feeCap > 0n) {
      const from = createAddressFromString(args.from ?? ZERO_ADDRESS)
      const balance = (await state.getAccount(from))?.balance ?? 0n
      const value = args.value ?? 0n
      if (value >= balance) throw new ServerRpcError('insufficient funds for transfer')
      let available = balance - value
      const blobs = BigInt(args.blobVersionedHashes?.length ?? 0)
      if (blobs > 0n && common.isActivatedEIP(4844)) {
        const blobCost = blobs * GAS_PER_BLOB * (args.maxFeePerBlobGas ?? 0n)
        if (blobCost >= available) throw new ServerRpcError('insufficient funds for gas * price + value')
        available -= blobCost
      }
      const allowance = available / feeCap
      if (allowance < hi) hi = allowance
    }
    const cap = callGasLimit(engine, { ...args, gas: undefined })
    if (hi > cap) hi = cap

    // A plain value transfer: tried at 21000 first (an access list, say, can make it cost more).
    if ((args.data ?? '0x') === '0x' && args.to !== undefined) {
      const code = await state.getCode(createAddressFromString(args.to))
      if (code.length === 0 && (await succeeds(TX_GAS))) return quantity(TX_GAS)
    }

    const top = await run(hi)
    if (top.outcome.status !== 'success') {
      if (top.outcome.status === 'failed' && top.outcome.message === 'out of gas') {
        throw new ServerRpcError(`gas required exceeds allowance (${hi})`)
      }
      throwIfFailed(top)
    }
    // Below the peak the call used before its refund it cannot run (Erigon's trueGas + refund - 1).
    let lo = top.maxUsedGas > TX_GAS ? top.maxUsedGas - 1n : TX_GAS - 1n
    const ratio = engine.options.estimateGasErrorRatio ?? 0
    // A call that makes no inner call and no late SSTORE (EIP-2200's stipend) runs with its peak:
    // then that is the answer in one run (a token transfer, say).
    if (ratio === 0 && lo + 1n < hi && (await succeeds(lo + 1n))) return quantity(lo + 1n)
    const optimistic = ((top.maxUsedGas + CALL_STIPEND) * 64n) / 63n
    if (optimistic > lo && optimistic < hi) {
      if (await succeeds(optimistic)) hi = optimistic
      else lo = optimistic
    }
    while (lo + 1n < hi) {
      if (ratio > 0 && Number(hi - lo) / Number(hi) < ratio) break
      let mid = lo + (hi - lo) / 2n
      if (mid > lo * 2n) mid = lo * 2n
      if (await succeeds(mid)) hi = mid
      else lo = mid
    }
    return quantity(hi)
  },
})
