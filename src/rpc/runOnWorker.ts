import { RpcError } from '../errors/rpc.js'
import type { RangeWorkers } from '../types/rangeWorkers.js'

/** One call's result from a worker: its JSON text as the worker wrote it, and (parsed on first use) its value. */
export type WorkerResult = { json: string; value(): unknown }

const RESULT_PREFIX = '{"jsonrpc":"2.0","id":1,"result":'

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
): Promise<WorkerResult> {
  const text = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })
  const out = await (onTxStart ? workers.run(text, signal, onTxStart) : workers.run(text, signal))
  if (out.startsWith(RESULT_PREFIX) && out.endsWith('}')) {
    const json = out.slice(RESULT_PREFIX.length, -1)
    let parsed: unknown
    return { json, value: () => (parsed ??= JSON.parse(json)) }
  }
  const answer = JSON.parse(out) as { result?: unknown; error?: { code: number; message: string; data?: unknown } }
  if (answer.error) throw new RpcError(answer.error.code, answer.error.message, { data: answer.error.data })
  const json = JSON.stringify(answer.result ?? null)
  return { json, value: () => answer.result }
}
