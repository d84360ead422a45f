import { InvalidParamsRpcError } from '../../errors/rpc.js'
import { defineMethod } from '../defineMethod.js'
import { GET_LOGS_MAX_BLOCKS } from '../eth/getLogs.js'
import { bloomMayMatch, logMatches } from '../eth/matchLogFilter.js'
import { parseLogFilter } from '../eth/parseLogFilter.js'
import { verifiedHeaderRange } from '../eth/verifiedHeaderRange.js'
import { required } from '../params.js'
import { verifiedBlockReceipts } from './blockReceipts.js'
import { erigonLogRange } from './erigonLogRange.js'
import { type EthLog, formatErigonLog } from './formatErigonLog.js'

/** Blocks whose receipts are fetched at once (as eth_getLogs). */
const RECEIPT_WAVE = 100

/**
 * erigon_getLogs(filter): the matching logs, oldest first, as the reference's ErigonLog objects (each
 * with its block's time), over the reference's range rules (erigonLogRange: from genesis by default; an
 * unknown blockHash answers null). As eth_getLogs: the blocks read are those whose verified header's
 * bloom may match, every log comes from receipts checked against receiptsRoot, the headers are linked
 * by parent hashes to the range's verified end, at most 10,000 blocks per request (-32602 beyond).
 */
export const getLogs = defineMethod({
  name: 'erigon_getLogs',
  params: [required(parseLogFilter)],
  async run(engine, [filter]) {
    const range = await erigonLogRange(engine, filter)
    if (range.kind === 'unknownHash') return null
    if (range.kind === 'empty') return []
    const blocks = range.last.number - range.begin + 1n
    const maxBlocks = engine.options.getLogsMaxBlocks ?? GET_LOGS_MAX_BLOCKS
    if (blocks > BigInt(maxBlocks))
      throw new InvalidParamsRpcError(
        `exceed maximum block range ${maxBlocks}: fromBlock ${range.begin} to toBlock ${range.last.number} is ${blocks} blocks`,
      )
    const headers = await verifiedHeaderRange(engine, range.begin, range.last)
    const candidates = headers.filter((h) => bloomMayMatch(h.header.logsBloom, filter))
    const out: Record<string, unknown>[] = []
    for (let start = 0; start < candidates.length; start += RECEIPT_WAVE) {
      const wave = candidates.slice(start, start + RECEIPT_WAVE)
      for (const receipts of await Promise.all(wave.map((h) => verifiedBlockReceipts(engine, h))))
        for (const receipt of receipts)
          for (const log of receipt.logs as EthLog[]) if (logMatches(log, filter)) out.push(formatErigonLog(log))
    }
    return out
  },
})
