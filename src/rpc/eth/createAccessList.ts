import { quantity } from '../../utils/hex.js'
import { executeCall } from '../../exec/executeCall.js'
import { prepareCall } from '../../exec/prepareCall.js'
import type { AccessListEntry } from '../../state/types.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { parseCallArgs } from '../parseCallArgs.js'
import { parseStateOverrides } from '../parseOverrides.js'
import { optional, required } from '../params.js'
import { defineMethod } from '../defineMethod.js'

const PRECOMPILE_MAX = 0x11n

function sameList(a: AccessListEntry[], b: AccessListEntry[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

/**
 * eth_createAccessList(call, block = latest, stateOverrides?): runs the call with the list found so
 * far until the list stops changing (geth's loop), excluding the sender, the recipient and the
 * precompiles as addresses (their slots are listed). Returns { accessList, gasUsed, error? }.
 */
export const createAccessList = defineMethod({
  name: 'eth_createAccessList',
  params: [required(parseCallArgs), optional(parseBlockParameter), optional(parseStateOverrides)],
  async run(engine, [args, selector, stateOverrides]) {
    const block = await prepareCall(engine, args, selector ?? { kind: 'tag', tag: 'latest' })
    const from = (args.from ?? '0x0000000000000000000000000000000000000000').toLowerCase()
    const to = args.to?.toLowerCase()
    let list: AccessListEntry[] = args.accessList ?? []
    for (let round = 0; round < 8; round++) {
      const result = await executeCall(engine, {
        args: { ...args, accessList: list },
        block,
        stateOverrides,
        reportAccessList: true,
      })
      const next = (result.accessList ?? [])
        .filter((e) => {
          if (e.storageKeys.length > 0) return true
          if (e.address === from || e.address === to) return false
          return BigInt(e.address) > PRECOMPILE_MAX
        })
        .map((e) => ({ address: e.address, storageKeys: [...e.storageKeys].sort() }))
      if (sameList(next, list) || round === 7) {
        // accessListResult's field order: accessList, error (omitted when empty), gasUsed.
        const error =
          result.outcome.status === 'reverted'
            ? 'execution reverted'
            : result.outcome.status === 'failed'
              ? result.outcome.message
              : undefined
        return { accessList: next, ...(error !== undefined ? { error } : {}), gasUsed: quantity(result.gasUsed) }
      }
      list = next
    }
    return undefined
  },
})
