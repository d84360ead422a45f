import { getLogs as ethGetLogs } from '../eth/getLogs.js'
import { parseLogFilter } from '../eth/parseLogFilter.js'
import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { type EthLog, formatErigonLog } from './formatErigonLog.js'

/**
 * erigon_getLogs(filter): eth_getLogs' logs (the same range rules and words, every log from receipts
 * checked against receiptsRoot) as the reference's ErigonLog objects, each with its block's time.
 */
export const getLogs = defineMethod({
  name: 'erigon_getLogs',
  params: [required(parseLogFilter)],
  async run(engine, [filter], context) {
    const logs = (await ethGetLogs.run(engine, [filter], context)) as unknown as EthLog[]
    return logs.map((log) => formatErigonLog(log))
  },
})
