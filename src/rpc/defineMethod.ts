import type { Engine } from '../exec/createEngine.js'
import type { CallContext } from '../types/progress.js'
import { type ParamParser, type ParsedParams, parseParams } from './params.js'
import { jsTracerPlan, runJsTracerRequest } from './runJsTracerRequest.js'
import { spreadHeavyCall } from './spreadHeavyCall.js'
import type { TracePlan } from '../tracing/tracePlan.js'

/**
 * One JSON-RPC method, declared once: its wire name, a parser per positional parameter (geth's
 * argument errors come from these) and what it computes from the parsed arguments — viem's
 * `{Method, Parameters, ReturnType}` as a value: `MethodParameters<typeof m>` and `MethodResult<typeof m>`
 * read its types back.
 */
export type MethodDefinition<
  parsers extends readonly ParamParser<unknown>[] = readonly ParamParser<unknown>[],
  result = unknown,
> = {
  /** `<namespace>_<method>`, as clients call it. */
  readonly name: string
  /** The positional parameters, in order; an optional one may be omitted or null. */
  readonly params: parsers
  /** The result from parsed arguments, the engine and the call's context (progress, deadline). */
  run(engine: Engine, args: ParsedParams<parsers>, context: CallContext): Promise<result>
  /**
   * A heavy method (a whole block traced): while the daemon already runs one, another call goes to
   * a worker's daemon when there are workers (see spreadHeavyCall).
   */
  readonly spread?: boolean
  /**
   * The namespace (by its `--http.api` name) this method is served with, where it is not its own's
   * gating: edgetrace_previewTransactions is served wherever `eth` is, edgetrace_trust everywhere.
   */
  readonly servedWith?: string
  /**
   * A stretch of a longer request that the daemon hands its own range workers (an ots search's
   * block scan: edgetrace_touchingBlocks; a Bor snapshot walk's signers: edgetrace_borSigners): bound
   * only on a range worker's daemon (createEdgetrace's `rangeWorker`), so that no client has it
   * (−32601, as a name no namespace has).
   */
  readonly forRangeWorkers?: boolean
}

export type MethodParameters<method> =
  method extends MethodDefinition<infer parsers, unknown> ? ParsedParams<parsers> : never
export type MethodResult<method> = method extends MethodDefinition<never, infer result> ? result : never

/** Declares a method (the identity, for inference of its parameter and result types). */
export function defineMethod<const parsers extends readonly ParamParser<unknown>[], result>(
  method: MethodDefinition<parsers, result>,
): MethodDefinition<parsers, result> {
  return method
}

/** A parsed trace config whose tracer renders with this daemon's own state (see NativeTracer.local). */
function isLocalPlan(arg: unknown): boolean {
  const plan = arg as Partial<TracePlan> | undefined
  return plan?.kind === 'native' && plan.tracer?.local?.(plan.config) === true
}

/**
 * Runs a method on raw JSON-RPC params: parse them (−32602 naming the argument), then compute.
 * `jsTracers: false` refuses tracer code (the listener the call came on is beyond loopback).
 */
export function invokeMethod(
  method: MethodDefinition,
  engine: Engine,
  params: unknown,
  context: CallContext,
  jsTracers = true,
): Promise<unknown> {
  const args = parseParams(params, method.params)
  const js = jsTracerPlan(args as readonly unknown[])
  if (js)
    return runJsTracerRequest(engine, method.name, params, js, context, () => method.run(engine, args, context), {
      allowed: jsTracers,
    })
  if (method.spread && !(args as readonly unknown[]).some(isLocalPlan))
    return spreadHeavyCall(engine, method.name, params, context, () => method.run(engine, args, context))
  return method.run(engine, args, context)
}
