import { bytesToHex } from '@ethereumjs/util'
import type { VerifiedHeader } from '../../chain/parseHeader.js'
import { InvalidParamsRpcError, ServerRpcError } from '../../errors/rpc.js'
import type { Hex } from '../../types/hex.js'
import { defineMethod } from '../defineMethod.js'
import { GET_LOGS_MAX_BLOCKS } from '../eth/getLogs.js'
import { bloomMayMatch, logMatches } from '../eth/matchLogFilter.js'
import { type LogFilter, parseLogFilter } from '../eth/parseLogFilter.js'
import { verifiedHeaderRange } from '../eth/verifiedHeaderRange.js'
import { ParamError, required } from '../params.js'
import { describe, parseObject } from '../parsers.js'
import { verifiedBlockReceipts } from './blockReceipts.js'
import { erigonLogRange } from './erigonLogRange.js'
import { type EthLog, formatErigonLog } from './formatErigonLog.js'

/** Blocks read per step of the backward scan (their headers in one batch, their receipts at once). */
const WINDOW = 100n

/** The reference's LogFilterOptions: counts are Go uint64s (bare JSON numbers); keys match case-insensitively. */
export type LatestLogsOptions = { logCount: number; blockCount: number; ignoreTopicsOrder: boolean }

export function parseLatestLogsOptions(raw: unknown): LatestLogsOptions {
  const o = parseObject(raw, 'an options')
  const field = (name: string) => Object.entries(o).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1]
  const count = (name: string): number => {
    const v = field(name)
    if (v === undefined || v === null) return 0
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
      throw new ParamError(
        `json: cannot unmarshal ${describe(v)} into Go struct field LogFilterOptions.${name} of type uint64`,
      )
    return v
  }
  const ignore = field('ignoreTopicsOrder')
  if (ignore !== undefined && ignore !== null && typeof ignore !== 'boolean')
    throw new ParamError(
      `json: cannot unmarshal ${describe(ignore)} into Go struct field LogFilterOptions.ignoreTopicsOrder of type bool`,
    )
  return { logCount: count('logCount'), blockCount: count('blockCount'), ignoreTopicsOrder: ignore === true }
}

/** Whether a log (or a block's bloom) matches with ignoreTopicsOrder: the address, and any topic among all those given. */
function unorderedMatcher(filter: LogFilter) {
  const union = [...new Set(filter.topics.flat())]
  const addressOnly: LogFilter = { ...filter, topics: [] }
  const anyTopic: LogFilter[] = union.map((t) => ({ ...filter, topics: [[t]] }))
  return {
    bloom: (bloom: Uint8Array) =>
      union.length === 0 ? bloomMayMatch(bloom, addressOnly) : anyTopic.some((f) => bloomMayMatch(bloom, f)),
    log: (log: EthLog) =>
      logMatches(log, addressOnly) && (union.length === 0 || log.topics.some((t) => union.includes(t as Hex))),
  }
}

/**
 * erigon_getLatestLogs(filter, {logCount, blockCount, ignoreTopicsOrder}): the newest matching logs
 * first — blocks from the range's end back, transactions from the last back, a transaction's logs in
 * their order — until logCount logs or blockCount blocks with a match (neither: one block; both: the
 * reference's `logs count & block count are ambigious`). `logIndex` counts within the transaction,
 * as the reference's. The range as erigon_getLogs' (erigonLogRange); an unknown blockHash is the
 * reference's `block header not found <hex>`. Every log comes from receipts checked against receiptsRoot, every header is
 * linked to the range's end by parent hashes; blocks are read in windows of 100 from the end, at most
 * `getLogsMaxBlocks` (10,000) of them: a scan that needs more is refused, naming the limit.
 */
export const getLatestLogs = defineMethod({
  name: 'erigon_getLatestLogs',
  params: [required(parseLogFilter), required(parseLatestLogsOptions)],
  async run(engine, [filter, options]) {
    if (options.logCount > 0 && options.blockCount > 0)
      throw new ServerRpcError('logs count & block count are ambigious')
    const blockCount = options.logCount === 0 && options.blockCount === 0 ? 1 : options.blockCount
    const match = options.ignoreTopicsOrder
      ? unorderedMatcher(filter)
      : { bloom: (bloom: Uint8Array) => bloomMayMatch(bloom, filter), log: (log: EthLog) => logMatches(log, filter) }
    const range = await erigonLogRange(engine, filter)
    if (range.kind === 'unknownHash') throw new ServerRpcError(`block header not found ${filter.blockHash?.slice(2)}`)
    if (range.kind === 'empty') return []
    const maxBlocks = BigInt(engine.options.getLogsMaxBlocks ?? GET_LOGS_MAX_BLOCKS)
    const out: Record<string, unknown>[] = []
    let blocks = 0
    let last: VerifiedHeader | undefined = range.last
    const done = () => (options.logCount > 0 ? out.length >= options.logCount : blocks >= blockCount)
    while (last && !done()) {
      if (range.last.number - last.number >= maxBlocks)
        throw new InvalidParamsRpcError(
          `exceed maximum block range ${maxBlocks}: the logs asked for are not within the last ${maxBlocks} blocks of the range`,
        )
      const from = last.number - WINDOW + 1n > range.begin ? last.number - WINDOW + 1n : range.begin
      const headers = (await verifiedHeaderRange(engine, from, last)).reverse()
      const candidates = headers.filter((h) => match.bloom(h.header.logsBloom))
      const receipts = await Promise.all(candidates.map((h) => verifiedBlockReceipts(engine, h)))
      for (const blockReceipts of receipts) {
        if (done()) break
        let matched = false
        for (const receipt of [...blockReceipts].reverse()) {
          if (done()) break
          const logs = (receipt.logs as EthLog[]).map((log, i) => ({ log, i }))
          for (const { log, i } of logs) {
            if (done()) break
            if (!match.log(log)) continue
            out.push(formatErigonLog(log, `0x${i.toString(16)}`))
            matched = true
          }
        }
        if (matched) blocks++
      }
      const oldest: VerifiedHeader = headers[headers.length - 1]!
      last =
        oldest.number > range.begin
          ? await engine.headers.byHash(bytesToHex(oldest.header.parentHash) as Hex)
          : undefined
    }
    return out
  },
})
