import { ParamError } from './params.js'
import { parseQuantity } from './parsers.js'
import { parseBlockOverrides, parseStateOverrides } from './parseOverrides.js'
import { builtinJsTracer, isKnownTracer, lookupTracer } from '../tracing/registry.js'
import type { TracePlan } from '../tracing/tracePlan.js'
import { parseGoDuration } from '../utils/parseGoDuration.js'

export const DEFAULT_TRACE_TIMEOUT_MS = 5000

/**
 * geth's TraceConfig / TraceCallConfig. Like Go's encoding/json, keys match case-insensitively and
 * unknown keys are ignored; a wrong type is an error naming the key. Erigon's `disableMemory` and
 * `disableReturnData` are accepted beside geth's `enableMemory` / `enableReturnData`.
 */
export function parseTraceConfig(raw: unknown): TracePlan {
  if (raw === undefined || raw === null) raw = {}
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new ParamError('expected a trace config object')
  const byKey = new Map(Object.entries(raw).map(([k, v]) => [k.toLowerCase(), v]))
  const get = (key: string) => byKey.get(key.toLowerCase())
  const bool = (key: string): boolean | undefined => {
    const v = get(key)
    if (v === undefined || v === null) return undefined
    if (typeof v !== 'boolean') throw new ParamError(`${key} must be a boolean`)
    return v
  }
  const timeoutText = get('timeout')
  let timeoutMs = DEFAULT_TRACE_TIMEOUT_MS
  if (timeoutText !== undefined && timeoutText !== null) {
    if (typeof timeoutText !== 'string') throw new ParamError('timeout must be a duration string such as "10s"')
    try {
      timeoutMs = parseGoDuration(timeoutText)
    } catch (err) {
      throw new ParamError(`timeout: ${(err as Error).message}`)
    }
  }
  const limit = get('limit')
  if (limit !== undefined && limit !== null && (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0)) {
    throw new ParamError('limit must be a non-negative integer')
  }
  // edgetrace's paging of struct logs (geth ignores the key): see StructLoggerConfig.offset.
  const offset = get('offset')
  if (
    offset !== undefined &&
    offset !== null &&
    (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0)
  ) {
    throw new ParamError('offset must be a non-negative integer')
  }
  const txIndexRaw = get('txIndex')
  let txIndex: number | undefined
  if (txIndexRaw !== undefined && txIndexRaw !== null) {
    txIndex =
      typeof txIndexRaw === 'number'
        ? txIndexRaw
        : typeof txIndexRaw === 'string'
          ? Number(parseQuantity(txIndexRaw))
          : NaN
    if (!Number.isInteger(txIndex) || txIndex < 0) throw new ParamError('txIndex must be a transaction index')
  }
  const common = {
    timeoutMs,
    stateOverrides: get('stateOverrides') == null ? undefined : parseStateOverrides(get('stateOverrides')),
    blockOverrides: get('blockOverrides') == null ? undefined : parseBlockOverrides(get('blockOverrides')),
    txIndex,
  }
  const tracerName = get('tracer')
  if (tracerName === undefined || tracerName === null || tracerName === '') {
    const enableMemory = bool('enableMemory') ?? (bool('disableMemory') === undefined ? false : !bool('disableMemory'))
    const enableReturnData =
      bool('enableReturnData') ?? (bool('disableReturnData') === undefined ? false : !bool('disableReturnData'))
    return {
      kind: 'structLogger',
      config: {
        enableMemory,
        enableReturnData,
        disableStack: bool('disableStack') ?? false,
        disableStorage: bool('disableStorage') ?? false,
        limit: typeof limit === 'number' ? limit : 0,
        offset: typeof offset === 'number' ? offset : 0,
        stepIndex: bool('stepIndex') ?? false,
      },
      ...common,
    }
  }
  if (typeof tracerName !== 'string') throw new ParamError('tracer must be a string')
  // Code rather than a name: a JavaScript tracer, as geth evaluates any name it does not know; or
  // the name of one of geth's built-in JavaScript tracers.
  const builtin = builtinJsTracer(tracerName)
  if (builtin !== undefined || (!isKnownTracer(tracerName) && /[{}()]/.test(tracerName))) {
    const raw = get('tracerConfig')
    return {
      kind: 'js',
      source: builtin ?? tracerName,
      config: raw === undefined ? '{}' : JSON.stringify(raw),
      misses: [],
      ...common,
    }
  }
  const tracer = lookupTracer(tracerName)
  const cfg = get('tracerConfig') ?? {}
  if (typeof cfg !== 'object' || cfg === null || Array.isArray(cfg))
    throw new ParamError('tracerConfig must be an object')
  return { kind: 'native', tracer, config: tracer.parseConfig(cfg as Record<string, unknown>), ...common }
}
