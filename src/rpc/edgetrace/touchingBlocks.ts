import { InvalidParamsRpcError } from '../../errors/rpc.js'
import { quantity } from '../../utils/hex.js'
import { defineMethod } from '../defineMethod.js'
import { JsonStream } from '../jsonStream.js'
import { required } from '../params.js'
import { parseAddress, parseQuantity } from '../parsers.js'
import { scanBlocksHere } from '../ots/scanBlocks.js'
import { scanBudget } from '../ots/scanBudget.js'
import type { TouchingBlock } from '../ots/scanOnWorkers.js'
import { OTS_SEARCH_MAX_BLOCKS } from '../ots/searchTransactions.js'

/**
 * edgetrace_touchingBlocks(address, first, last): a stretch of an ots search's block scan, run by a
 * range worker (a thread, a pool's Web Worker, a `--queue.work` process) for the daemon that owns the
 * search (see scanOnWorkers) — the blocks of `first`…`last` (inclusive, either direction) in which the
 * address is touched, in scan order, each with its touching transactions, found as the owner's own
 * scan finds them (scanBlocksHere). Streamed: a stretch that fails part-way answers the blocks found
 * before the failure beside its error. Served only on a range worker's daemon (`forRangeWorkers`):
 * no client has it.
 */
export const touchingBlocks = defineMethod({
  name: 'edgetrace_touchingBlocks',
  params: [required(parseAddress), required(parseQuantity), required(parseQuantity)],
  forRangeWorkers: true,
  async run(engine, [address, first, last], context): Promise<JsonStream> {
    const blocks = (last >= first ? last - first : first - last) + 1n
    if (blocks > BigInt(OTS_SEARCH_MAX_BLOCKS))
      throw new InvalidParamsRpcError(`a stretch of ${blocks} blocks; at most ${OTS_SEARCH_MAX_BLOCKS} at once`)
    const budget = scanBudget(Number(blocks), first, 'for a stretch')
    return new JsonStream(async (write, hold) => {
      // Held until the first block: a stretch whose first block fails answers a plain error.
      hold('[')
      let found = 0
      try {
        for await (const { header, hits } of scanBlocksHere(engine, address, first, last, budget, context)) {
          const block: TouchingBlock = { number: quantity(header.number), hash: header.hash, hits }
          await write(`${found++ === 0 ? '' : ','}${JSON.stringify(block)}`)
        }
      } finally {
        hold(']')
      }
    })
  },
})
