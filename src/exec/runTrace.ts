import { pendingState } from './txpool/pendingState.js'
import type { RunTxResult } from '@ethereumjs/vm'
import type { VerifiedHeader } from '../chain/parseHeader.js'
import { GenesisNotTraceableError, TransactionNotFoundError } from '../errors/replay.js'
import type { OverlayStateManager } from '../state/createOverlayStateManager.js'
import type { FlatTraceContext } from '../tracing/render/toFlatTraces.js'
import type { TxTraceSession } from '../tracing/startTxTrace.js'
import type { BlockSelector } from '../types/blockSelector.js'
import type { Deadline } from '../types/deadline.js'
import type { BlockOverrides, StateOverrides } from '../types/overrides.js'
import type { ProgressUpdate } from '../types/progress.js'
import type { Engine } from './createEngine.js'
import { executeCall } from './executeCall.js'
import { type LoadedBlock, loadBlock } from './loadBlock.js'
import { locateTransaction } from './locateTransaction.js'
import { prepareCall } from './prepareCall.js'
import { type ReplayTracer, prefetchBlock, replayBlock } from './replayBlock.js'
import { replayTransactionAt } from './replayTransaction.js'
import { stateBefore } from './stateBefore.js'
import type { CallArgs } from './types.js'
import { createExecutionDeadline } from './withTimeout.js'

/** Where one traced execution stands. */
export type TraceAt = {
  /** Its block: a mined transaction's, or the block whose state and header a call runs on. */
  header: VerifiedHeader
  /** The transaction's index in its block, or the call's index in the request's list of calls. */
  index: number
  /** The renderers' view of it: block hash and number, the transaction's hash (mined ones), position. */
  context: FlatTraceContext
}

/** What a namespace does with each traced execution: it starts the session and shapes the result. */
export type TraceHandler = {
  /** The session that traces the execution at `at` (a renderer's recorder, or a struct-log writer). */
  start(at: TraceAt): TxTraceSession
  /** The session's finished result (undefined for the struct logger, which wrote its own output). */
  done(at: TraceAt, result: unknown): void | Promise<void>
  /**
   * The run failed while the session of `at` was open; `wrote`: that session had written output (the
   * struct logger closed what it wrote). Called before the error is thrown.
   */
  failed?(at: TraceAt, wrote: boolean): void
}

/** One call of a traced list: its arguments and the overrides it runs under. */
export type TracedCall = {
  args: CallArgs
  stateOverrides?: StateOverrides | undefined
  blockOverrides?: BlockOverrides | undefined
}

/** What to trace. */
export type TraceTarget =
  /** A mined transaction: its block's earlier transactions replayed untraced, then it, traced. */
  | { kind: 'transaction'; hash: string }
  /** Every transaction of a block. The genesis block has none to trace (GenesisNotTraceableError). */
  | { kind: 'block'; block: BlockSelector }
  /**
   * Every transaction of the blocks `from`…`to` (both verified; those between them by number),
   * loaded and prefetched a window ahead of the one traced. `afterBlock` hears each block once its
   * transactions are done, with the state they left (genesis: neither), and stops the walk by
   * returning false. A block `skip` says has nothing to trace from its verified header alone (no
   * transactions, nothing else the caller needs) is neither loaded nor replayed: afterBlock hears
   * it with neither.
   */
  | {
      kind: 'blocks'
      from: VerifiedHeader
      to: VerifiedHeader
      skip?: ((header: VerifiedHeader) => boolean) | undefined
      afterBlock(
        number: bigint,
        loaded: LoadedBlock | undefined,
        state: OverlayStateManager | undefined,
      ): Promise<boolean>
    }
  /**
   * Calls traced one after the other, each on the state the previous left: on the state at the end of
   * `block`, or — with `before` — after the block's first `before.count` transactions replayed on its
   * parent's state ('all': every one; a count past the block's end is an error or means all of them).
   */
  | {
      kind: 'calls'
      block: BlockSelector
      calls: readonly TracedCall[]
      before?: { count: number | 'all'; pastEnd: 'error' | 'all' } | undefined
    }

export type RunTraceOptions = {
  /**
   * The request's one deadline: every load, replay and call of the run shares it (a request that
   * runs a replay and then a call gets one budget, not one each). Without it, --rpc.evmtimeout from now.
   */
  deadline?: Deadline | undefined
  /** Told after each transaction of a traced block. */
  progress?: ((update: ProgressUpdate) => void) | undefined
}

/** What was traced: the block (the last one of a range) and, for a block, its loaded form. */
export type TraceRun = { header: VerifiedHeader; loaded?: LoadedBlock | undefined }

/** Blocks loaded and prefetched ahead of the one being traced (a range). */
const PIPELINE = 8n

/**
 * The one way edgetrace traces: loads and verifies what the target needs, replays what comes before
 * it, runs every traced execution with the session `handler.start` gives, finishes each session and
 * hands its result to `handler.done` — all under the request's one deadline. On failure an open
 * session is aborted (so a struct-log stream closes what it wrote) and `handler.failed` told.
 */
export async function runTrace(
  engine: Engine,
  target: TraceTarget,
  handler: TraceHandler,
  options: RunTraceOptions = {},
): Promise<TraceRun> {
  const own = options.deadline ? undefined : createExecutionDeadline(engine.options.evmTimeoutMs)
  const deadline = (options.deadline ?? own)!
  try {
    switch (target.kind) {
      case 'transaction':
        return await traceTransaction(engine, target.hash, handler, deadline)
      case 'block':
        return await traceBlock(engine, target.block, handler, deadline, options.progress)
      case 'blocks':
        return await traceBlocks(engine, target, handler, deadline)
      case 'calls':
        return await traceCalls(engine, target, handler, deadline)
      default:
        throw new Error(`unknown trace target ${(target satisfies never as { kind: string }).kind}`)
    }
  } finally {
    own?.dispose()
  }
}

/** Sessions of one run: at most one open at a time; finished into `done`, aborted on failure. */
function sessions(handler: TraceHandler) {
  let open: { at: TraceAt; session: TxTraceSession } | undefined
  return {
    begin(at: TraceAt): TxTraceSession {
      const session = handler.start(at)
      open = { at, session }
      return session
    },
    async end(result: RunTxResult, state: OverlayStateManager): Promise<void> {
      const { at, session } = open!
      const value = await session.finish(result, state)
      open = undefined
      await handler.done(at, value)
    },
    /** Runs `work`; when it fails with a session open, aborts that session and tells the handler. */
    async guard<value>(work: () => Promise<value>): Promise<value> {
      try {
        return await work()
      } catch (err) {
        if (open) {
          const { at, session } = open
          open = undefined
          // Aborted whether or not the handler listens: `failed?.(at, await abort())` would skip the
          // abort with the call, leaving a struct-log stream's JSON open.
          const wrote = await session.abort()
          handler.failed?.(at, wrote)
        }
        throw err
      }
    },
  }
}

const mined = (loaded: LoadedBlock, index: number): TraceAt => ({
  header: loaded.header,
  index,
  context: {
    blockHash: loaded.header.hash,
    blockNumber: loaded.header.number,
    transactionHash: loaded.receipts[index]!.transactionHash,
    transactionPosition: index,
  },
})

/** Traces transactions of a loaded block (all of them, or one) as its replay reaches them. */
function blockTracer(loaded: LoadedBlock, run: ReturnType<typeof sessions>, only?: number): ReplayTracer {
  return {
    begin: (i) => (only === undefined || i === only ? run.begin(mined(loaded, i)) : undefined),
    end: (_i, result, state) => run.end(result, state),
  }
}

async function traceTransaction(
  engine: Engine,
  hash: string,
  handler: TraceHandler,
  deadline: Deadline,
): Promise<TraceRun> {
  const where = await locateTransaction(engine, hash)
  if (!where) throw new TransactionNotFoundError(hash)
  const run = sessions(handler)
  const replayed = await run.guard(() =>
    replayTransactionAt(engine, hash, where, { deadline, tracer: (loaded, index) => blockTracer(loaded, run, index) }),
  )
  return { header: replayed.loaded.header, loaded: replayed.loaded }
}

/** A block to trace, loaded and verified; undefined for the genesis block (nothing was executed in it). */
async function loadTraceable(engine: Engine, selector: BlockSelector): Promise<LoadedBlock | undefined> {
  const header = await engine.headers.resolve(selector)
  if (header.number === 0n) return undefined
  return loadBlock(engine, header.hash, header.number)
}

async function traceBlock(
  engine: Engine,
  selector: BlockSelector,
  handler: TraceHandler,
  deadline: Deadline,
  progress: RunTraceOptions['progress'],
): Promise<TraceRun> {
  const loaded = await loadTraceable(engine, selector)
  if (!loaded) throw new GenesisNotTraceableError()
  const run = sessions(handler)
  await run.guard(() => replayBlock(engine, loaded, { tracer: blockTracer(loaded, run), progress, deadline }))
  return { header: loaded.header, loaded }
}

async function traceBlocks(
  engine: Engine,
  { from, to, skip, afterBlock }: Extract<TraceTarget, { kind: 'blocks' }>,
  handler: TraceHandler,
  deadline: Deadline,
): Promise<TraceRun> {
  const headerOf = (n: bigint) =>
    n === to.number ? to : n === from.number ? from : engine.headers.resolve({ kind: 'number', number: n })
  // Blocks ahead are loaded and their state prefetched while earlier ones are traced (a window of
  // PIPELINE blocks), so the upstream's latency is paid once per window, not per block.
  const ahead = new Map<bigint, Promise<LoadedBlock | undefined>>()
  const prepare = (n: bigint) => {
    if (n > to.number || ahead.has(n)) return
    const p = Promise.resolve(headerOf(n)).then(async (header) => {
      if (header.number === 0n || skip?.(header)) return undefined
      const loaded = await loadBlock(engine, header.hash, header.number)
      await prefetchBlock(engine, loaded)
      return loaded
    })
    p.catch(() => {}) // awaited in order below; an early failure must not go unhandled
    ahead.set(n, p)
  }
  for (let n = from.number; n <= to.number; n++) {
    for (let k = 0n; k < PIPELINE; k++) prepare(n + k)
    const loaded = await ahead.get(n)!
    ahead.delete(n)
    let state: OverlayStateManager | undefined
    if (loaded) {
      const run = sessions(handler)
      state = (await run.guard(() => replayBlock(engine, loaded, { tracer: blockTracer(loaded, run), deadline }))).state
    }
    const goOn = await afterBlock(n, loaded, state)
    // The range's budget is per block: each block traced moves the deadline on.
    deadline.extend(engine.options.evmTimeoutMs)
    if (!goOn) break
  }
  return { header: to }
}

async function traceCalls(
  engine: Engine,
  { block: selector, calls, before }: Extract<TraceTarget, { kind: 'calls' }>,
  handler: TraceHandler,
  deadline: Deadline,
): Promise<TraceRun> {
  if (calls.length === 0) return { header: await engine.headers.resolve(selector) }
  let state: OverlayStateManager | undefined
  let header: VerifiedHeader
  if (before === undefined) {
    // The state at the end of the block: what the first call will read is fetched up front.
    header = await prepareCall(engine, calls[0]!.args, selector)
    // `pending`: the head's state with the pool's pending transactions applied first.
    if (selector.kind === 'tag' && selector.tag === 'pending')
      state = (await pendingState(engine, header, deadline))?.state
  } else {
    header = await engine.headers.resolve(selector)
    state = await stateBefore(engine, header, before.count, { pastEnd: before.pastEnd, deadline })
  }
  const run = sessions(handler)
  await run.guard(async () => {
    for (const [index, call] of calls.entries()) {
      const session = run.begin({
        header,
        index,
        context: { blockHash: header.hash, blockNumber: header.number, transactionPosition: index },
      })
      const ran = await executeCall(engine, {
        args: call.args,
        block: header,
        baseState: state,
        stateOverrides: call.stateOverrides,
        blockOverrides: call.blockOverrides,
        trace: session,
        deadline,
      })
      state = ran.state
      await run.end(ran.run, ran.state)
    }
  })
  return { header }
}
