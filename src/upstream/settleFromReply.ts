import { UpstreamRpcError } from '../errors/upstream.js'
import { isRetryableRpcError } from './isRetryableRpcError.js'
import { type Call, settleCall } from './settleCall.js'
import type { JsonRpcReply } from './types.js'

/**
 * Settles the calls from the upstream's answer (a reply object, or an array of them for a batch);
 * returns those worth asking again — no reply for them, or an error that says "later" — and why.
 */
export function settleFromReply(calls: Call[], json: unknown): { again: Call[]; why?: string } {
  const replies = new Map<unknown, JsonRpcReply>()
  for (const r of Array.isArray(json) ? json : [json]) {
    if (r && typeof r === 'object') replies.set((r as JsonRpcReply).id, r as JsonRpcReply)
  }
  // A single call answered with an error that carries no id (a node that could not read the
  // request): that error is the call's answer, not a reply gone missing.
  const lone = calls.length === 1 && !Array.isArray(json) ? (json as JsonRpcReply) : undefined
  if (lone?.error && typeof lone.error === 'object' && (lone.id === null || lone.id === undefined)) {
    replies.set(calls[0]!.id, lone)
  }
  const again: Call[] = []
  let why: string | undefined
  for (const call of calls) {
    const reply = replies.get(call.id)
    if (!reply) {
      again.push(call)
      why ??= `no reply to ${call.method} in the upstream's answer`
    } else if (reply.error && typeof reply.error === 'object') {
      if (isRetryableRpcError(reply.error)) {
        again.push(call)
        why ??= `${call.method}: ${String(reply.error.message)} (${String(reply.error.code)})`
      } else settleCall(call, { error: new UpstreamRpcError(call.method, reply.error) })
    } else settleCall(call, { value: reply.result === undefined ? null : reply.result })
  }
  return why === undefined ? { again } : { again, why }
}
