import { InvalidParamsRpcError } from '../../../errors/rpc.js'
import type { BlockSelector } from '../../../types/blockSelector.js'
import { defineMethod } from '../../defineMethod.js'
import { required } from '../../params.js'
import { type LogFilter, parseLogFilter } from '../parseLogFilter.js'
import { type LogRange, filterStoreOf } from './filterStore.js'

/** A bound as geth's SubscribeLogs reads it: `latest` (or none) open, `earliest` 0, a number; else undefined. */
function bound(selector: BlockSelector | undefined): { open: true } | { number: bigint } | undefined {
  if (selector === undefined) return { open: true }
  if (selector.kind === 'number') return { number: selector.number }
  if (selector.kind === 'tag' && selector.tag === 'latest') return { open: true }
  if (selector.kind === 'tag' && selector.tag === 'earliest') return { number: 0n }
  return undefined
}

/**
 * The block numbers a new log filter keeps to, with geth's rules (eth/filters SubscribeLogs):
 * `pending` is not supported; both ends `latest` (or absent), a number to `latest`, or a number to a
 * number not below it; anything else (a reversed range, `safe`/`finalized`) is `invalid block range params`.
 */
export function logRangeOf(filter: LogFilter): LogRange {
  const isPending = (s: BlockSelector | undefined) => s?.kind === 'tag' && s.tag === 'pending'
  if (isPending(filter.fromBlock) || isPending(filter.toBlock))
    throw new InvalidParamsRpcError('pending logs are not supported')
  const from = bound(filter.fromBlock)
  const to = bound(filter.toBlock)
  if (from && to) {
    const fromNumber = 'number' in from ? from.number : undefined
    const toNumber = 'number' in to ? to.number : undefined
    if (fromNumber === undefined && toNumber === undefined) return { from: undefined, to: undefined }
    if (fromNumber !== undefined && (toNumber === undefined || toNumber >= fromNumber))
      return { from: fromNumber, to: toNumber }
  }
  throw new InvalidParamsRpcError('invalid block range params')
}

/**
 * eth_newFilter(filter): a log filter; eth_getFilterChanges gives the matching logs of blocks
 * verified after it was installed (a reorg's removed logs again with `removed: true`), kept to its
 * numeric `fromBlock`/`toBlock`; eth_getFilterLogs runs it as eth_getLogs.
 */
export const newFilter = defineMethod({
  name: 'eth_newFilter',
  params: [required(parseLogFilter)],
  async run(engine, [filter], context) {
    const range = logRangeOf(filter)
    return filterStoreOf(engine).install(context.session, { kind: 'logs', filter }, 'logs', filter, range)
  },
})
