import { createJsonFramer } from '../../src/node/createJsonFramer.js'
import { type FuzzRequest, checkAnswer } from './fuzzRequests.js'
import type { StreamClient } from './streamClient.js'

/** What one pipelined fuzz run over a stream found: `problems` per request (empty ones left out). */
export type PipelinedOutcome = { sent: number; problems: { request: FuzzRequest; problems: string[] }[] }

/** The key an id is matched by (a string or a safe integer; other ids cannot be told apart when pipelined). */
function idKey(id: unknown): string | undefined {
  if (typeof id === 'string') return `s${id}`
  if (typeof id === 'number' && Number.isSafeInteger(id) && !Object.is(id, -0)) return `n${id}`
  return undefined
}

/**
 * Whether a fuzz request can share a pipeline with others: its answer can be told by its id (one
 * request, a distinct id), or it owes nothing (a notification); over a socket it frames as one JSON
 * value that does not end the connection.
 */
export function pipelinable(request: FuzzRequest, stream: boolean, maxBodyBytes: number): boolean {
  if (request.httpOnly) return false
  const { expect } = request
  if (expect.kind === 'single') {
    if (expect.entry.altIds?.length || idKey(expect.entry.id) === undefined) return false
  } else if (expect.kind !== 'nothing') return false
  if (!stream) return true
  const framed = createJsonFramer(maxBodyBytes).push(new TextEncoder().encode(request.text))
  return framed.texts.length === 1 && !framed.error
}

/**
 * Sends `requests` over one stream connection in windows of `window`, each window written at once
 * without waiting for answers (pipelining), then reads the answers: each matched by its id to the
 * request it answers and checked against what that request is owed, within `timeoutMs` of being
 * sent. A notification answered, an answer nobody asked for, an answer past its time or a
 * connection closed under the client are problems. Ids are made distinct within a window by
 * leaving out a request whose id is taken.
 */
export async function runPipelinedFuzz(
  client: StreamClient,
  requests: readonly FuzzRequest[],
  { window = 32, timeoutMs }: { window?: number; timeoutMs: number },
): Promise<PipelinedOutcome> {
  const outcome: PipelinedOutcome = { sent: 0, problems: [] }
  const over = client.kind === 'WebSocket' ? 'over WebSocket, pipelined' : `over ${client.kind}, pipelined`
  let sentinel = 0
  for (let start = 0; start < requests.length && !client.closed; start += window) {
    const owed = new Map<string, FuzzRequest>()
    const batch: FuzzRequest[] = []
    for (const request of requests.slice(start, start + window)) {
      if (request.expect.kind === 'single') {
        const key = idKey(request.expect.entry.id)!
        if (owed.has(key)) continue
        owed.set(key, request)
      }
      batch.push(request)
    }
    // A sentinel closes the window: once it and every owed answer are in, anything else was not owed.
    const sentinelId = `pipeline-sentinel-${++sentinel}`
    const sentinelText = JSON.stringify({ jsonrpc: '2.0', id: sentinelId, method: 'web3_clientVersion', params: [] })
    const deadline = Date.now() + timeoutMs
    for (const request of batch) client.send(client.kind === 'WebSocket' ? request.text : `${request.text}\n`)
    client.send(client.kind === 'WebSocket' ? sentinelText : `${sentinelText}\n`)
    outcome.sent += batch.length
    let sentinelSeen = false
    while (owed.size > 0 || !sentinelSeen) {
      const text = await client.next(deadline)
      if (text === undefined) break
      let id: unknown
      try {
        id = (JSON.parse(text) as { id?: unknown }).id
      } catch {
        outcome.problems.push({
          request: batch[0]!,
          problems: [`an answer that is not JSON — ${over}: ${text.slice(0, 160)}`],
        })
        continue
      }
      if (id === sentinelId) {
        sentinelSeen = true
        continue
      }
      const key = idKey(id)
      const request = key === undefined ? undefined : owed.get(key)
      if (!request) {
        outcome.problems.push({
          request: batch[0]!,
          problems: [
            `an answer no pipelined request was owed (a notification answered?) — ${over}: ${text.slice(0, 160)}`,
          ],
        })
        continue
      }
      owed.delete(key!)
      const problems = checkAnswer(request, 200, text).map((p) => `${p} (${over})`)
      if (problems.length > 0) outcome.problems.push({ request, problems })
    }
    for (const request of owed.values()) {
      outcome.problems.push({
        request,
        problems: [
          `${request.label}: no answer within ${timeoutMs} ms of being sent — ${over}, ${client.closed ? 'connection closed' : 'connection open'}`,
        ],
      })
    }
    if (!sentinelSeen && owed.size === 0)
      outcome.problems.push({
        request: batch[0]!,
        problems: [`the window's closing call went unanswered within ${timeoutMs} ms — ${over}`],
      })
  }
  return outcome
}
