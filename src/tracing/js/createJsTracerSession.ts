import { bytesToBigInt, bytesToHex, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import type { Hex } from '../../types/hex.js'
import type { EnterFrame, OpcodeStep, TracerHooks } from '../hooks.js'
import { type JsTracerObject, evaluateJsTracer } from './evaluateJsTracer.js'
import { JsTracerInterrupt, fromBuf, jsTracerGlobals, rightAligned, toBig } from './jsTracerGlobals.js'
import { JS_TRACER_RESULT_MAX_CHARS, jsTracerResultTooLarge } from './jsTracerResultLimit.js'

/** What a tracer's `db` reads, synchronously; 'unknown' where the state has not been loaded yet. */
export type JsTracerState = {
  account(address: Hex): { balance: bigint; nonce: bigint } | undefined | 'unknown'
  code(address: Hex): Uint8Array | 'unknown'
  storage(address: Hex, slot: Hex): Uint8Array | 'unknown'
}

/** A read the tracer's `db` could not answer from what was loaded (fetched, then the trace runs again). */
export type JsStateMiss = { address: Hex; slot?: Hex | undefined }

/**
 * Base-state values loaded for a tracer's earlier misses (the execution never read them itself):
 * accounts (null: absent) and code by address, slots by `address:slot`.
 */
export type JsLoadedState = {
  accounts: Map<Hex, { balance: bigint; nonce: bigint } | null>
  code: Map<Hex, Uint8Array>
  storage: Map<string, Uint8Array>
}

/** Where the traced transaction is (known when the session starts): ctx's blockHash, txHash, txIndex. */
export type JsTracerPlace = {
  blockHash?: Hex | undefined
  txHash?: Hex | undefined
  txIndex?: number | undefined
}

/** What the execution tells the tracer when the transaction starts. */
export type JsTracerEnv = {
  blockNumber: bigint
  coinbase: Hex
  /** geth's ctx.gasPrice: the transaction's effective tip. */
  gasTip: bigint
  /** The active precompiles' addresses (lower-case hex). */
  precompiles: ReadonlySet<string>
  state: JsTracerState
}

const hexBytes = (hex: Hex) => hexToBytes(hex)
const CODE_DEPOSIT_ERRORS = new Set([
  'contract creation code storage out of gas',
  'max code size exceeded',
  'invalid code: must not begin with 0xef',
])

/**
 * A JavaScript tracer on geth's terms, fed by the same hooks as the native tracers: its `step` on
 * every op (log: op, stack, memory, contract, pc, gas, cost, depth, refund, error), `fault` when an
 * op that ran failed, `enter`/`exit` for every inner frame, `ctx` filled as geth fills it, `db` on
 * the execution's state, and `result(ctx, db)` at the end. Its first error (or a host helper's
 * interrupt, which its own catch cannot swallow) stops it and is the trace's error, worded as geth's:
 * `<error>    in server-side tracer function '<hook>'`. `state` answers db reads synchronously; what
 * it has not loaded is noted in `misses` and answered as empty, and the caller runs the trace again.
 */
export function createJsTracerSession({
  source,
  config,
  place,
  env,
}: {
  source: string
  /** The request's tracerConfig as JSON text ('{}' without one), given to setup() as geth does. */
  config: string
  place: JsTracerPlace
  /** The execution's side, once it is bound (before the transaction starts). */
  env: () => JsTracerEnv | undefined
}) {
  const state = () => env()?.state
  const NO_PRECOMPILES: ReadonlySet<string> = new Set()
  let failure: Error | undefined
  let pending: JsTracerInterrupt | undefined
  const misses: JsStateMiss[] = []
  const interrupt = (err: JsTracerInterrupt): never => {
    pending ??= err
    throw err
  }
  const tracer: JsTracerObject = evaluateJsTracer(
    source,
    jsTracerGlobals(() => env()?.precompiles ?? NO_PRECOMPILES, interrupt),
  )
  const call = (hook: string, fn: ((...args: unknown[]) => unknown) | undefined, ...args: unknown[]) => {
    if (failure || !fn) return undefined
    try {
      const value = fn.apply(tracer, args)
      if (pending) throw pending
      return value
    } catch (err) {
      const reason = pending ?? err
      failure = new Error(`${describe(reason)}    in server-side tracer function '${hook}'`)
      return undefined
    }
  }
  // setup(config) runs once, before anything else; its error is returned as it is.
  if (typeof tracer.setup === 'function') {
    try {
      tracer.setup.call(tracer, config)
      if (pending) throw pending
    } catch (err) {
      throw new Error(describe(pending ?? err))
    }
  }

  const ctx: Record<string, unknown> = {}
  if (place.blockHash) {
    ctx.blockHash = hexBytes(place.blockHash)
    if (place.txHash) {
      ctx.txIndex = place.txIndex ?? 0
      ctx.txHash = hexBytes(place.txHash)
    }
  }

  // db: the execution's state as the EVM sees it now.
  const buf = (value: unknown) => rightAligned(fromBuf(value, false, interrupt), 20)
  const addressOf = (value: unknown) => bytesToHex(buf(value)).toLowerCase() as Hex
  const account = (address: Hex) => {
    const view = state()
    const found = view ? view.account(address) : 'unknown'
    if (found === 'unknown') misses.push({ address })
    return found === 'unknown' ? undefined : found
  }
  const db = {
    getBalance: (addr: unknown) => toBig(account(addressOf(addr))?.balance ?? 0n),
    getNonce: (addr: unknown) => Number(account(addressOf(addr))?.nonce ?? 0n),
    getCode(addr: unknown) {
      const address = addressOf(addr)
      const code = state()?.code(address) ?? 'unknown'
      if (code === 'unknown') misses.push({ address })
      return code === 'unknown' ? new Uint8Array(0) : code.slice()
    },
    getState(addr: unknown, slotValue: unknown) {
      const address = addressOf(addr)
      const slot = bytesToHex(rightAligned(fromBuf(slotValue, false, interrupt), 32)) as Hex
      // At an SSTORE's step, the slot it writes as it was before the op (geth's step precedes it).
      const value =
        written && written.step === step && written.address === address && written.slot === slot
          ? written.before
          : (state()?.storage(address, slot) ?? 'unknown')
      if (value === 'unknown') misses.push({ address, slot })
      return setLengthLeft(value === 'unknown' ? new Uint8Array(0) : value, 32)
    },
    exists: (addr: unknown) => account(addressOf(addr)) !== undefined,
  }
  harden(db)

  // The slot the SSTORE being stepped writes, and its value before the write.
  let written: { step: OpcodeStep; address: Hex; slot: Hex; before: Uint8Array | 'unknown' } | undefined
  // The frames the tracer is inside (for log.contract): caller, address, value, input.
  const frames: { caller: Hex; address: Hex; value: bigint; input: Uint8Array; stepped: boolean }[] = []
  let step: OpcodeStep | undefined
  const log = {
    op: {
      toNumber: () => step?.op ?? 0,
      toString: () => step?.opName ?? '',
      isPush: () => step !== undefined && step.op >= 0x5f && step.op <= 0x7f,
    },
    stack: {
      peek(index: unknown) {
        const stack = step?.stack ?? []
        const i = Math.trunc(Number(index ?? 0)) || 0
        if (i < 0 || i >= stack.length)
          return interrupt(
            new JsTracerInterrupt(`tracer accessed out of bound stack: size ${stack.length}, index ${i}`),
          )
        return toBig(stack[stack.length - 1 - i]!)
      },
      length: () => step?.stack.length ?? 0,
    },
    memory: {
      slice(begin: unknown, end: unknown) {
        const memory = step?.memory ?? new Uint8Array(0)
        const b = Math.trunc(Number(begin ?? 0)) || 0
        const e = Math.trunc(Number(end ?? 0)) || 0
        if (e === b) return new Uint8Array(0)
        if (e < b || b < 0)
          return interrupt(new JsTracerInterrupt(`tracer accessed out of bound memory: offset ${b}, end ${e}`))
        if (e - memory.length > 1024 * 1024)
          return interrupt(new JsTracerInterrupt(`reached limit for padding memory slice: ${e - memory.length}`))
        const out = new Uint8Array(e - b)
        if (b < memory.length) out.set(memory.subarray(b, Math.min(e, memory.length)))
        return out
      },
      getUint(offset: unknown) {
        const memory = step?.memory ?? new Uint8Array(0)
        const o = Math.trunc(Number(offset ?? 0)) || 0
        if (o < 0 || memory.length < o + 32)
          return interrupt(
            new JsTracerInterrupt(
              `tracer accessed out of bound memory: available ${memory.length}, offset ${o}, size 32`,
            ),
          )
        return toBig(bytesToBigInt(memory.subarray(o, o + 32)))
      },
      length: () => step?.memory.length ?? 0,
    },
    contract: {
      getCaller: () => hexBytes(frames.at(-1)?.caller ?? `0x${'00'.repeat(20)}`),
      // The storage context the op runs in (a created contract's address is known by its first op).
      getAddress: () => hexBytes(step?.address ?? frames.at(-1)?.address ?? `0x${'00'.repeat(20)}`),
      getValue: () => toBig(frames.at(-1)?.value ?? 0n),
      getInput: () => (frames.at(-1)?.input ?? new Uint8Array(0)).slice(),
    },
    getPC: () => step?.pc ?? 0,
    getGas: () => Number(step?.gas ?? 0n),
    getCost: () => Number(step?.cost ?? 0n),
    getDepth: () => step?.depth ?? 0,
    getRefund: () => Number(step?.refund ?? 0n),
    getError: () => step?.error,
  }
  // The host's objects a tracer is handed are frozen, as geth's are native: it reads them, never rewires them.
  harden(log)

  const enterFrame = (frame: EnterFrame) => ({
    getType: () => frame.kind,
    getFrom: () => hexBytes(frame.from),
    getTo: () => hexBytes(frame.to ?? `0x${'00'.repeat(20)}`),
    getInput: () => frame.input.slice(),
    getGas: () => Number(frame.gas),
    getValue: () => (frame.value === undefined ? undefined : toBig(frame.value)),
  })
  const hasFrames = typeof tracer.enter === 'function' && typeof tracer.exit === 'function'
  let pendingEnter: EnterFrame | undefined
  const flushEnter = (address: Hex | undefined) => {
    const frame = pendingEnter!
    pendingEnter = undefined
    const top = frames.at(-1)
    if (top && address) top.address = address
    call('enter', tracer.enter, enterFrame({ ...frame, to: address }))
  }
  const hasStep = typeof tracer.step === 'function'

  const hooks: TracerHooks = {
    onTxStart(tx) {
      const at = env()
      ctx.block = Number(at?.blockNumber ?? 0n)
      ctx.gas = Number(tx.gasLimit)
      // Not in geth's ctx today (it was in its earlier tracers; the legacy prestate tracer read it).
      ctx.intrinsicGas = Number(tx.intrinsicGas)
      ctx.gasPrice = toBig(at?.gasTip ?? 0n)
      ctx.coinbase = hexBytes(at?.coinbase ?? `0x${'00'.repeat(20)}`)
    },
    onEnter(frame) {
      const parent = frames.at(-1)
      const delegated = frame.kind === 'DELEGATECALL' || frame.kind === 'CALLCODE'
      frames.push({
        caller: frame.kind === 'DELEGATECALL' && parent ? parent.caller : frame.from,
        address: delegated && parent ? parent.address : (frame.to ?? `0x${'00'.repeat(20)}`),
        value: frame.kind === 'DELEGATECALL' ? (parent?.value ?? 0n) : (frame.value ?? 0n),
        input: frame.input,
        stepped: false,
      })
      if (frame.depth === 0) {
        ctx.type = frame.kind === 'CREATE' || frame.kind === 'CREATE2' ? 'CREATE' : 'CALL'
        ctx.from = hexBytes(frame.from)
        ctx.to = hexBytes(frame.to ?? `0x${'00'.repeat(20)}`)
        ctx.input = frame.input.slice()
        ctx.value = toBig(frame.value ?? 0n)
        return
      }
      if (!hasFrames) return
      // A create's address is known by its first op (or its exit): geth's enter already has it.
      if (frame.to === undefined && frame.kind !== 'SELFDESTRUCT') pendingEnter = frame
      else call('enter', tracer.enter, enterFrame(frame))
    },
    onExit(frame) {
      if (pendingEnter) flushEnter(frame.address)
      const top = frames.pop()
      // An op that ran and then failed (REVERT, an invalid jump …): geth's fault, after its step.
      if (frame.error && top?.stepped && step && !step.error && !CODE_DEPOSIT_ERRORS.has(frame.error)) {
        step = { ...step, error: frame.error }
        call('fault', tracer.fault, log, db)
      }
      if (frame.depth === 0) {
        if (frame.error) ctx.error = frame.error
        if (frame.address && ctx.type === 'CREATE') ctx.to = hexBytes(frame.address)
        ctx.output = frame.output.slice()
        return
      }
      if (!hasFrames) return
      const result = {
        getGasUsed: () => Number(frame.gasUsed),
        getOutput: () => frame.output.slice(),
        getError: () => frame.error,
      }
      call('exit', tracer.exit, result)
    },
    onTxEnd(tx) {
      ctx.gasUsed = Number(tx.gasUsed)
    },
  }
  // Steps are followed even for a tracer without step(): geth calls its fault() (required) with the
  // failing op's log, which only the steps can give.
  hooks.onOpcode = (next) => {
    if (pendingEnter) flushEnter(next.address)
    step = next
    const frame = frames.at(-1)
    if (frame) frame.stepped = true
    if (hasStep) call('step', tracer.step, log, db)
    written = undefined
  }
  if (hasStep)
    hooks.onSstoreStart = (next) => {
      const address = next.address.toLowerCase() as Hex
      const slot = bytesToHex(next.slot!.key) as Hex
      written = { step: next, address, slot, before: state()?.storage(address, slot) ?? 'unknown' }
    }

  return {
    hooks,
    /** Reads the tracer's `db` could not answer from what was loaded. */
    misses: () => misses,
    /** result(ctx, db) as JSON, or the tracer's first error. */
    result(): unknown {
      if (failure) throw failure
      const value = call('result', tracer.result, ctx, db)
      if (failure) throw failure
      if (value === undefined || value === null) return {}
      // What result() returned must encode as JSON (a cycle, a BigInt or a throwing toJSON do not).
      let text: string | undefined
      try {
        text = JSON.stringify(value)
      } catch (err) {
        throw new Error(`tracer result is not JSON: ${describe(err)}`)
      }
      // Bounded here, in the tracer's thread (its heap is bounded): no oversize text leaves it.
      if (text !== undefined && text.length > JS_TRACER_RESULT_MAX_CHARS)
        throw new Error(jsTracerResultTooLarge(text.length))
      return JSON.parse(text ?? 'null')
    },
  }
}

function describe(err: unknown): string {
  // A host helper's interrupt is its bare message, as geth's interrupts are.
  if (err instanceof JsTracerInterrupt) return err.message
  if (err instanceof Error) return `${err.name}: ${err.message}`
  return String(err)
}
