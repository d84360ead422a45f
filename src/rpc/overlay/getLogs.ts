import { ServerRpcError } from '../../errors/rpc.js'
import { loadBlock } from '../../exec/loadBlock.js'
import { createExecutionDeadline, withTimeout } from '../../exec/withTimeout.js'
import { createDeadline } from '../../utils/createDeadline.js'
import { formatDuration } from '../../utils/formatDuration.js'
import { fetchVerifiedReceipts } from '../debug/fetchVerifiedReceipts.js'
import { defineMethod } from '../defineMethod.js'
import { headersOf } from '../eth/getLogs.js'
import { logMatches } from '../eth/matchLogFilter.js'
import { parseLogFilter } from '../eth/parseLogFilter.js'
import { parseStateOverrides } from '../parseOverrides.js'
import { optional, required } from '../params.js'
import { type OverlayLog, hasTransactions, replayWithOverrides } from './replayWithOverrides.js'

/** The reference daemon's defaults: `--rpc.overlay.getlogstimeout` 5m, `--rpc.overlay.replayblocktimeout` 10s. */
export const OVERLAY_GET_LOGS_TIMEOUT_MS = 5 * 60_000
export const OVERLAY_REPLAY_BLOCK_TIMEOUT_MS = 10_000

/** Blocks whose transactions and receipts are fetched ahead of the one replayed. */
const LOAD_AHEAD = 8

/**
 * overlay_getLogs(filter, stateOverrides?): the logs the filter's blocks would have emitted had the
 * overrides held — each block re-executed on the verified state after its parent with the overrides
 * applied (each block on its own: the overrides do not carry from one block to the next, as in the
 * reference daemon, rpc/jsonrpc/overlay_api.go), its logs filtered by address and topics. The range
 * follows eth_getLogs' rules (and its 10,000-block bound). A block that provably emits no log even so
 * is skipped without execution (see replayWithOverrides). Where the reference drops a block whose
 * replay failed or timed out from its answer, here that is an error naming the block: an answer
 * without it would look complete. Bounded by `--rpc.overlay.getlogstimeout` as a whole and
 * `--rpc.overlay.replayblocktimeout` per block. The reference's third argument (chain rules) is
 * accepted and ignored, as the reference's JSON decoding leaves it empty.
 */
export const getLogs = defineMethod({
  name: 'overlay_getLogs',
  params: [required(parseLogFilter), optional(parseStateOverrides), optional((raw: unknown) => raw)],
  async run(engine, [filter, overrides], context): Promise<OverlayLog[]> {
    const totalMs = engine.options.overlayGetLogsTimeoutMs ?? OVERLAY_GET_LOGS_TIMEOUT_MS
    const blockMs = engine.options.overlayReplayBlockTimeoutMs ?? OVERLAY_REPLAY_BLOCK_TIMEOUT_MS
    const total = createDeadline(
      totalMs,
      () => new ServerRpcError(`context deadline exceeded (overlay_getLogs timeout = ${formatDuration(totalMs)})`),
    )
    try {
      return await withTimeout(
        totalMs,
        async () => {
          const headers = await headersOf(engine, filter)
          const logs: OverlayLog[] = []
          const loads = new Map<number, Promise<unknown>>()
          for (const [done, header] of headers.entries()) {
            if (total.aborted) throw total.reason
            // The next blocks' transactions and receipts are fetched while this one replays (kept by
            // hash, so the replay finds them); a failure here is met again, and reported, there.
            for (let ahead = done + 1; ahead <= done + LOAD_AHEAD && ahead < headers.length; ahead++) {
              const next = headers[ahead]!
              if (loads.has(ahead) || !hasTransactions(next)) continue
              loads.set(
                ahead,
                Promise.all([loadBlock(engine, next.hash, next.number), fetchVerifiedReceipts(engine, next)]).catch(
                  () => undefined,
                ),
              )
            }
            await loads.get(done)
            loads.delete(done)
            const perBlock = createExecutionDeadline(Math.max(1, Math.min(blockMs, total.remaining())))
            try {
              const replayed = await withTimeout(
                blockMs,
                () => replayWithOverrides(engine, header, overrides ?? {}, perBlock),
                perBlock,
              )
              for (const log of replayed.logs) if (logMatches(log, filter)) logs.push(log)
            } catch (err) {
              if (perBlock.aborted && !total.aborted)
                throw new ServerRpcError(
                  `execution aborted (timeout = ${formatDuration(blockMs)}) replaying block ${header.number} ${header.hash}`,
                )
              throw err
            } finally {
              perBlock.dispose()
            }
            context.progress({ done: done + 1, total: headers.length, unit: 'blocks' })
          }
          return logs
        },
        total,
      )
    } finally {
      total.dispose()
    }
  },
})
