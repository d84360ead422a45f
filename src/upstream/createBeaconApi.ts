import { readBoundedText } from '../utils/readBoundedText.js'
import { redactUrl } from '../utils/redactUrl.js'

/** The Beacon API of a consensus node, as the light client reads it: GET a path, its JSON answer. */
export type BeaconApi = {
  readonly url: string
  get(path: string, signal?: AbortSignal): Promise<unknown>
}

/** Longest wait for one Beacon API answer (ms), and its largest body. */
const TIMEOUT_MS = 30_000
const MAX_BYTES = 32 * 1024 * 1024

/**
 * A Beacon API client over HTTP(S) `fetch`: each GET bounded in time and size; a non-2xx answer is
 * an error naming the path and status (the node's own message when it gives one), never data.
 */
export function createBeaconApi(url: string, { timeoutMs = TIMEOUT_MS, maxBytes = MAX_BYTES } = {}): BeaconApi {
  const base = url.replace(/\/+$/, '')
  return {
    url: redactUrl(base),
    async get(path, signal) {
      const timeout = AbortSignal.timeout(timeoutMs)
      const res = await fetch(`${base}${path}`, {
        headers: { accept: 'application/json' },
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      }).catch((err: unknown) => {
        const reason = timeout.aborted ? `no answer within ${timeoutMs} ms` : (err as Error).message
        throw new Error(`beacon API ${redactUrl(base)}${path.split('?')[0]}: ${reason}`)
      })
      const text = await readBoundedText(res, maxBytes, () => new Error(`answer over ${maxBytes} bytes`)).catch(
        (err: unknown) => {
          throw new Error(`beacon API ${path.split('?')[0]}: ${(err as Error).message}`)
        },
      )
      if (!res.ok) {
        let message = text.slice(0, 200)
        try {
          message = String((JSON.parse(text) as { message?: unknown }).message ?? message)
        } catch {}
        throw new Error(`beacon API ${path.split('?')[0]}: HTTP ${res.status}${message ? ` (${message})` : ''}`)
      }
      try {
        return JSON.parse(text) as unknown
      } catch {
        throw new Error(`beacon API ${path.split('?')[0]}: the answer is not JSON`)
      }
    },
  }
}
