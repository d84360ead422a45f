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

const CALL_STIPEND = 2300n
/** geth's estimator stops when the window is within 1.5% of the answer. */
const ERROR_RATIO = 0.015

/**
 * eth_estimateGas(call, block = latest, stateOverrides?): geth's estimator (eth/gasestimator) run
 * locally: one run at the ceiling, an optimistic guess from the gas used, then binary search. Every
 * probe reuses the state the first run fetched, so only the first run costs upstream requests.
 */
export const estimateGas = defineMethod({
  name: 'eth_estimateGas',
  params: [required(parseCallArgs), optional(parseBlockParameter), optional(parseStateOverrides)],
  async run(engine, [args, selector, stateOverrides]): Promise<Hex> {
    const block = await prepareCall(engine, args, selector ?? { kind: 'tag', tag: 'latest' })
    const run = (gasLimit: bigint) => executeCall(engine, { args, block, gasLimit, stateOverrides })

    let hi = args.gas !== undefined && args.gas >= 21000n ? args.gas : block.header.gasLimit
    const cap = callGasLimit(engine, { ...args, gas: undefined })
    if (hi > cap) hi = cap
    // With a fee, the sender's balance bounds the gas it can buy.
    const feeCap = args.maxFeePerGas ?? args.gasPrice ?? 0n
    if (feeCap > 0n) {
      const state = createOverlayStateManager({ source: engine.source, block })
      if (stateOverrides) await applyStateOverrides(state, stateOverrides)
      const from = createAddressFromString(args.from ?? '0x0000000000000000000000000000000000000000')
      const available = ((await state.getAccount(from))?.balance ?? 0n) - (args.value ?? 0n)
      if (available < 0n) throw new ServerRpcError('insufficient funds for transfer')
      const allowance = available / feeCap
      if (allowance < hi) hi = allowance
    }

    const top = await run(hi)
    if (top.outcome.status !== 'success') {
      if (top.outcome.status === 'failed' && top.outcome.message === 'out of gas') {
        throw new ServerRpcError(`gas required exceeds allowance (${hi})`)
      }
      throwIfFailed(top)
    }
    let lo = top.gasUsed - 1n
    const optimistic = ((top.gasUsed + CALL_STIPEND) * 64n) / 63n
    if (optimistic < hi) {
      const r = await run(optimistic).catch(() => undefined)
      if (r && r.outcome.status === 'success') hi = optimistic
      else lo = optimistic
    }
    while (lo + 1n < hi) {
      if (Number(hi - lo) / Number(hi) < ERROR_RATIO) break
      let mid = (hi + lo) / 2n
      if (mid > lo * 2n) mid = lo * 2n
      const r = await run(mid).catch(() => undefined)
      if (r && r.outcome.status === 'success') hi = mid
      else lo = mid
    }
    return `0x${hi.toString(16)}`
  },
})
