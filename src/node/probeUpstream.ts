import { redactUrl } from '../utils/redactUrl.js'
import { CliError } from './parseCliArgs.js'

/**
 * Asks an http(s) upstream for its chain id once, before anything starts, so a wrong URL is named
 * for what it is: nothing listening, or a server that answers but is not a JSON-RPC node (a web
 * page, a REST API, a proxy's error page). A JSON-RPC error is an answer: the node is there.
 * WebSocket upstreams are left to the client's own errors.
 */
export async function probeUpstream(url: string, timeoutMs = 10_000): Promise<void> {
  if (!/^https?:\/\//i.test(url)) return
  const shown = redactUrl(url)
  let res: Response
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(timeoutMs),
    })
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause
    const why =
      (err as Error).name === 'TimeoutError'
        ? `no answer in ${timeoutMs / 1000} s`
        : (cause?.code ?? cause?.message ?? (err as Error).message)
    throw new CliError(`cannot reach the upstream ${shown}: ${why}. Is the node running, and is this its RPC URL?`)
  }
  const text = await res.text().catch(() => '')
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  const reply = Array.isArray(body) ? body[0] : body
  const isJsonRpc =
    typeof reply === 'object' &&
    reply !== null &&
    ((reply as { jsonrpc?: unknown }).jsonrpc === '2.0' || 'result' in reply || 'error' in reply) &&
    ('result' in reply || 'error' in reply)
  if (isJsonRpc) return
  const type = res.headers.get('content-type')?.split(';')[0] ?? 'no content type'
  const start = text.replace(/\s+/g, ' ').trim().slice(0, 60)
  throw new CliError(
    `the upstream ${shown} answered, but it is not a JSON-RPC node: eth_chainId got HTTP ${res.status} (${type})${start ? `: "${start}${text.length > 60 ? '…' : ''}"` : ', an empty body'}. Give --upstream the node's JSON-RPC URL (e.g. http://127.0.0.1:8545).`,
  )
}
