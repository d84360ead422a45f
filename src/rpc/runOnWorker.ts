import { RpcError } from '../errors/rpc.js'
import type { RangeWorkers } from '../types/rangeWorkers.js'

/**
 * One call's result from a worker: its JSON text as the worker wrote it, and (parsed on first use) its
 * value. A streamed result that failed after content comes with its `error` (Erigon's shape: the
 * partial result and the error in one envelope): the caller sends the part, then fails with the error.
 */
export type WorkerResult = { json: string; value(): unknown; error?: RpcError | undefined }

const RESULT_PREFIX = '{"jsonrpc":"2.0","id":1,"result":'
/** How an envelope's error member begins: after a result, it marks a partial result and its error. */
const ERROR_MEMBER = ',"error":{"code":'

const rpcErrorOf = (error: { code: number; message: string; data?: unknown }) =>
  new RpcError(error.code, error.message, { data: error.data })

/**
 * Runs one call on a worker's daemon. A success is handed back as its result's text (parsed only if
 * the caller needs the values); a JSON-RPC error is thrown as the same error, as if met here.
 */
export async function runOnWorker(
  workers: RangeWorkers,
  method: string,
  params: unknown,
  signal?: AbortSignal,
  onTxStart?: () => void,
  onColdStart?: (phase: 'starting' | 'ready') => void,
): Promise<WorkerResult> {
  const text = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })
  const out = await (onColdStart
    ? workers.run(text, signal, onTxStart, onColdStart)
    : onTxStart
      ? workers.run(text, signal, onTxStart)
      : workers.run(text, signal))
  // A result's text as it is, unless an error member may follow it (parsed below to be sure).
  if (out.startsWith(RESULT_PREFIX) && out.endsWith('}') && !out.includes(ERROR_MEMBER)) {
    const json = out.slice(RESULT_PREFIX.length, -1)
    let parsed: unknown
    return { json, value: () => (parsed ??= JSON.parse(json)) }
  }
  const answer = JSON.parse(out) as { result?: unknown; error?: { code: number; message: string; data?: unknown } }
  if (answer.error && !('result' in answer)) throw rpcErrorOf(answer.error)
  const json = JSON.stringify(answer.result ?? null)
  return { json, value: () => answer.result, ...(answer.error ? { error: rpcErrorOf(answer.error) } : {}) }
}
