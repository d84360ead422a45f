import { redactUrlsIn } from '../utils/redactUrl.js'
import { RetryableError } from './RetryableError.js'
import type { Reply, Transport } from './types.js'
import { withBasicAuth } from './withBasicAuth.js'

/**
 * POSTs each body with fetch. A request past `timeoutMs`, a connection that fails and (through
 * `json: undefined`) a body that is not JSON are left to the caller's retries; statuses are
 * returned, not judged.
 */
export function createHttpTransport({
  url,
  headers,
  timeoutMs,
}: {
  url: string
  headers: Record<string, string>
  timeoutMs: number
}): Transport {
  const target = withBasicAuth(url, headers)
  return {
    async send(body: string, _ids: readonly number[], signal: AbortSignal): Promise<Reply> {
      const controller = new AbortController()
      const timer = setTimeout(
        () => controller.abort(new RetryableError(`request timed out after ${timeoutMs} ms`)),
        timeoutMs,
      )
      const abandon = () => controller.abort(signal.reason)
      signal.addEventListener('abort', abandon, { once: true })
      try {
        const res = await fetch(target.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...target.headers },
          body,
          signal: controller.signal,
        })
        const text = await res.text()
        let json: unknown
        try {
          json = text === '' ? undefined : JSON.parse(text)
        } catch {
          json = undefined
        }
        return { status: res.status, retryAfter: res.headers.get('retry-after'), json }
      } catch (err) {
        if (controller.signal.aborted) throw controller.signal.reason
        const cause = (err as { cause?: { code?: string; message?: string } }).cause
        // fetch's own message may quote the URL whole ("Failed to parse URL from …").
        throw new RetryableError(
          `connection failed (${redactUrlsIn(String(cause?.code ?? cause?.message ?? (err as Error).message))})`,
        )
      } finally {
        clearTimeout(timer)
        signal.removeEventListener('abort', abandon)
      }
    },
    async close() {},
  }
}
