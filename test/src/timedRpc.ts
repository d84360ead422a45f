/** What came back for one JSON-RPC request, or that nothing did in time. */
export type TimedAnswer =
  | { kind: 'answer'; ms: number; status: number; text: string; json: unknown }
  | { kind: 'timeout'; ms: number }
  | { kind: 'failed'; ms: number; reason: string }

/**
 * POSTs a JSON-RPC body and waits at most `deadlineMs` for the whole answer; the request is
 * aborted then (the client gives up, as a caller with a deadline would).
 */
export async function timedRpc(url: string, body: unknown, deadlineMs: number): Promise<TimedAnswer> {
  const started = performance.now()
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), deadlineMs)
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
      signal: controller.signal,
    })
    const text = await res.text()
    let json: unknown
    try {
      json = text === '' ? undefined : JSON.parse(text)
    } catch {
      json = undefined
    }
    return { kind: 'answer', ms: performance.now() - started, status: res.status, text, json }
  } catch (err) {
    const ms = performance.now() - started
    if (controller.signal.aborted) return { kind: 'timeout', ms }
    const cause = (err as { cause?: { code?: string } }).cause
    return { kind: 'failed', ms, reason: cause?.code ?? (err as Error).message }
  } finally {
    clearTimeout(timer)
  }
}
