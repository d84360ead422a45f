import { SILENT_CONTEXT } from '../progress.js'
import type { CallContext } from '../../types/progress.js'
import type { Engine } from '../../exec/createEngine.js'
import { InvalidParamsRpcError } from '../../errors/rpc.js'
import type { ParityTrace } from '../../tracing/render/parity/toParityTraces.js'
import { JsonStream } from '../jsonStream.js'
import { parseBlockField } from '../parseBlockParameter.js'
import type { BlockSelector } from '../../types/blockSelector.js'
import { ParamError } from '../params.js'
import { describe, parseAddress } from '../parsers.js'
import type { LoadedBlock } from '../../exec/loadBlock.js'
import { type TraceAt, runTrace } from '../../exec/runTrace.js'
import type { TraceResult } from '../../tracing/tracers/parityTracer.js'
import { blockRewards, hasNoTraces } from './blockRewards.js'
import { startParityTrace } from './traceSession.js'
import { fanOutRange, rangeWorkersFor } from '../fanOutRange.js'

/** The most blocks one trace_filter request may cover by default (each is replayed). */
export const TRACE_FILTER_MAX_BLOCKS = 10_000

export type TraceFilter = {
  fromBlock: BlockSelector
  toBlock: BlockSelector
  fromAddress: Set<string> | undefined
  toAddress: Set<string> | undefined
  after: number
  count: number | undefined
  mode: 'union' | 'intersection'
}

const plainInteger = (raw: unknown, what: string) => {
  if (typeof raw !== 'number' || !Number.isSafeInteger(raw) || raw < 0)
    throw new ParamError(`${what} must be a non-negative JSON number, got ${describe(raw)}`)
  return raw
}
const addresses = (raw: unknown, what: string) => {
  if (raw === undefined || raw === null) return undefined
  if (!Array.isArray(raw)) throw new ParamError(`${what} must be an array of addresses`)
  return new Set(raw.map((a) => parseAddress(a).toLowerCase()))
}

/** trace_filter's request object (Erigon's TraceFilterRequest). */
export function parseTraceFilter(raw: unknown): TraceFilter {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new ParamError(`expected a filter object, got ${describe(raw)}`)
  const o = raw as Record<string, unknown>
  return {
    fromBlock: parseBlockField('fromBlock', o.fromBlock ?? '0x0'),
    toBlock: parseBlockField('toBlock', o.toBlock ?? 'latest'),
    fromAddress: addresses(o.fromAddress, 'fromAddress'),
    toAddress: addresses(o.toAddress, 'toAddress'),
    after: o.after === undefined || o.after === null ? 0 : plainInteger(o.after, 'after'),
    count: o.count === undefined || o.count === null ? undefined : plainInteger(o.count, 'count'),
    // OpenEthereum (and Besu, whose recorded answers we match) require both lists to match when both
    // are given; Erigon added `mode` with union as its default. An explicit mode is honoured.
    mode: o.mode === 'union' ? 'union' : 'intersection',
  }
}

/** How many traces a worker's JSON holds: each one's text starts with its `action` member. */
function countTraces(json: string): number {
  let n = 0
  for (let at = json.indexOf('{"action":'); at >= 0; at = json.indexOf('{"action":', at + 10)) n++
  return n
}

/** The addresses a trace comes from and goes to, for filtering. */
function ends(t: ParityTrace): { from: string | undefined; to: string | undefined } {
  const action = t.action as Record<string, string>
  const result = t.result as Record<string, string> | null | undefined
  switch (t.type) {
    case 'call':
      return { from: action.from, to: action.to }
    case 'create':
      return { from: action.from, to: result?.address }
    case 'suicide':
      return { from: action.address, to: action.refundAddress }
    default:
      return { from: undefined, to: action.author }
  }
}

function matches(t: ParityTrace, f: TraceFilter): boolean {
  if (!f.fromAddress && !f.toAddress) return true
  const { from, to } = ends(t)
  const fromHit = f.fromAddress !== undefined && from !== undefined && f.fromAddress.has(from)
  const toHit = f.toAddress !== undefined && to !== undefined && f.toAddress.has(to)
  if (f.mode === 'intersection') return (!f.fromAddress || fromHit) && (!f.toAddress || toHit)
  return fromHit || toHit
}

/**
 * trace_filter: every trace of every transaction in the block range (replayed on verified state,
 * block by block) and the blocks' reward entries, filtered by sender/recipient addresses (both lists
 * must match unless `mode: "union"`), then `after` traces skipped and at most `count` returned. Streamed as a JSON array
 * as blocks are traced, so memory does not grow with the range.
 */
export async function traceFilter(
  engine: Engine,
  filter: TraceFilter,
  context: CallContext = SILENT_CONTEXT,
): Promise<JsonStream> {
  const from = await engine.headers.resolve(filter.fromBlock)
  const to = await engine.headers.resolve(filter.toBlock)
  if (from.number > to.number)
    throw new InvalidParamsRpcError('invalid parameters: fromBlock cannot be greater than toBlock')
  const maxBlocks = engine.options.traceFilterMaxBlocks ?? TRACE_FILTER_MAX_BLOCKS
  if (to.number - from.number + 1n > BigInt(maxBlocks)) {
    throw new InvalidParamsRpcError(
      `trace_filter covers ${to.number - from.number + 1n} blocks; at most ${maxBlocks} may be asked at once`,
    )
  }
  const config = {
    types: new Set(['trace'] as const),
    includePrecompiles: false,
    creationMethod: true,
    withBlockFields: true,
    revertData: 'revertReason' as const,
  }
  return new JsonStream(async (write, hold) => {
    let seen = 0
    let written = 0
    const total = to.number - from.number + 1n
    const started = Date.now()
    const report = (n: bigint) => {
      const done = n - from.number + 1n
      context.progress({
        done: Number(done),
        total: Number(total),
        unit: 'blocks',
        message: `trace_filter ${from.number}…${to.number}: ${done} of ${total} blocks traced, ${written} traces sent, ${Math.round((Date.now() - started) / 1000)} s`,
      })
    }
    // The brackets are held until the first trace: a range whose first block fails answers a plain
    // error, not an empty array beside it.
    hold('[')
    try {
      if (filter.count === 0) return
      const send = async (traces: readonly ParityTrace[]): Promise<boolean> => {
        for (const t of traces) {
          if (!matches(t, filter)) continue
          seen++
          if (seen <= filter.after) continue
          if (filter.count !== undefined && written >= filter.count) break
          await write(`${written++ === 0 ? '' : ','}${JSON.stringify(t)}`)
        }
        return filter.count === undefined || written < filter.count
      }
      // A long range is cut into stretches traced by the worker threads, and streamed in order.
      const workers = rangeWorkersFor(engine, total)
      if (workers) {
        const list = (set: Set<string> | undefined) => (set ? [...set] : undefined)
        await fanOutRange({
          workers,
          engine,
          from: from.number,
          to: to.number,
          request: (fromBlock, toBlock) => ({
            method: 'trace_filter',
            params: [
              {
                fromBlock,
                toBlock,
                fromAddress: list(filter.fromAddress),
                toAddress: list(filter.toAddress),
                mode: filter.mode,
              },
            ],
          }),
          onChunk: async (chunk, last) => {
            let goOn = true
            if (filter.after === 0 && filter.count === undefined) {
              // Everything the worker sent goes out as it wrote it (it filtered by address already).
              const inner = chunk.json.slice(1, -1)
              if (inner.length > 0) {
                await write(`${written === 0 ? '' : ','}${inner}`)
                written += countTraces(inner)
              }
            } else goOn = await send(chunk.value() as ParityTrace[])
            report(last)
            return goOn
          },
          deadline: context.deadline,
        })
        return
      }
      let block: ParityTrace[] = []
      const done = (_at: TraceAt, result: unknown) => {
        for (const t of (result as TraceResult).trace as ParityTrace[]) block.push(t)
      }
      const afterBlock = async (n: bigint, loaded: LoadedBlock | undefined) => {
        const traces = loaded ? [...block, ...(await blockRewards(engine, loaded))] : []
        block = []
        const goOn = await send(traces)
        report(n)
        return goOn
      }
      const start = (at: TraceAt) => startParityTrace(engine, config, at.context)
      // A block with no transactions and no reward has no traces: its header says so, no replay needed.
      await runTrace(
        engine,
        { kind: 'blocks', from, to, skip: hasNoTraces, afterBlock },
        { start, done },
        { deadline: context.deadline },
      )
    } finally {
      hold(']')
    }
  })
}
