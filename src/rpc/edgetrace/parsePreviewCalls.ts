import type { CallArgs } from '../../exec/types.js'
import type { Hex } from '../../types/hex.js'
import { parseCallArgs } from '../parseCallArgs.js'
import { ParamError } from '../params.js'
import { describe, parseAddress, parseObject } from '../parsers.js'
import type { PreviewAbis } from '../../exec/preview/nameCall.js'
import { parsePreviewAbis } from './parsePreviewAbis.js'

/** Most calls one preview runs. */
export const MAX_PREVIEW_CALLS = 100

/** edgetrace_previewTransactions' `calls`: eth_simulateV1-style calls, each from the same account. */
export function parsePreviewCalls(raw: unknown): CallArgs[] {
  if (!Array.isArray(raw)) throw new ParamError(`calls: expected an array, got ${describe(raw)}`)
  if (raw.length === 0) throw new ParamError('calls: empty, give at least one call')
  if (raw.length > MAX_PREVIEW_CALLS) throw new ParamError(`calls: ${raw.length} calls, at most ${MAX_PREVIEW_CALLS}`)
  const calls = raw.map((c, i) => {
    try {
      return parseCallArgs(c)
    } catch (err) {
      throw new ParamError(`calls[${i}]: ${err instanceof Error ? err.message : String(err)}`)
    }
  })
  const from = calls[0]!.from
  calls.forEach((c, i) => {
    if (c.from?.toLowerCase() !== from?.toLowerCase()) {
      throw new ParamError(
        `calls[${i}].from: ${c.from ?? 'missing'}, calls[0].from ${from ?? 'missing'}: the calls are from one account`,
      )
    }
  })
  return calls
}

export type PreviewOptions = {
  account?: Hex | undefined
  newContractDays?: number | undefined
  firstInteractionBlocks?: number | undefined
  transactionIndex?: number | undefined
  abis?: PreviewAbis | undefined
}

const OPTIONS = ['account', 'newContractDays', 'firstInteractionBlocks', 'transactionIndex', 'abis']
/** Most blocks firstInteraction may look back (their bodies are fetched when the account sent in them). */
const MAX_FIRST_INTERACTION_BLOCKS = 1024

/**
 * edgetrace_previewTransactions' `options`: `{ account, newContractDays, firstInteractionBlocks,
 * transactionIndex }` (whose asset changes, default the calls' `from`; the age in days under which a
 * spender contract is new, default 30; the blocks looked back for a first interaction, default 32; 0
 * to not look; run on the block's parent state after its first `transactionIndex` transactions, as
 * debug_traceCallMany's StateContext — where a mined transaction at that index ran; `abis`: the
 * app's JSON ABIs by address, naming functions and custom errors).
 */
export function parsePreviewOptions(raw: unknown): PreviewOptions {
  const o = parseObject(raw, 'preview options')
  for (const key of Object.keys(o)) {
    if (!OPTIONS.includes(key)) throw new ParamError(`options.${key}: unknown option (known: ${OPTIONS.join(', ')})`)
  }
  const out: PreviewOptions = {}
  const days = o.newContractDays
  if (days !== undefined && days !== null) {
    if (typeof days !== 'number' || !Number.isFinite(days) || days < 0 || days > 36_500) {
      throw new ParamError(`options.newContractDays: expected a number of days from 0 to 36500, got ${describe(days)}`)
    }
    out.newContractDays = days
  }
  const blocks = o.firstInteractionBlocks
  if (blocks !== undefined && blocks !== null) {
    if (!Number.isInteger(blocks) || (blocks as number) < 0 || (blocks as number) > MAX_FIRST_INTERACTION_BLOCKS) {
      throw new ParamError(
        `options.firstInteractionBlocks: expected a whole number of blocks from 0 to ${MAX_FIRST_INTERACTION_BLOCKS}, got ${describe(blocks)}`,
      )
    }
    out.firstInteractionBlocks = blocks as number
  }
  // As Erigon's StateContext.transactionIndex: a number, or a quantity.
  const index = o.transactionIndex
  if (index !== undefined && index !== null) {
    const n = typeof index === 'string' && /^0x[0-9a-fA-F]{1,8}$/.test(index) ? Number(index) : index
    if (!Number.isSafeInteger(n) || (n as number) < 0) {
      throw new ParamError(
        `options.transactionIndex: expected a transaction's index in the block (a whole number from 0, or a quantity), got ${describe(index)}`,
      )
    }
    out.transactionIndex = n as number
  }
  // The app's ABIs by address, for function and custom error names (parsePreviewAbis).
  if (o.abis !== undefined && o.abis !== null) out.abis = parsePreviewAbis(o.abis)
  if (o.account === undefined || o.account === null) return out
  try {
    return { ...out, account: parseAddress(o.account) }
  } catch (err) {
    throw new ParamError(`options.account: ${err instanceof Error ? err.message : String(err)}`)
  }
}
