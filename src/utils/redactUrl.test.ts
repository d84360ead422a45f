import { describe, expect, it } from 'vitest'
import { UpstreamRpcError, UpstreamUnavailableError } from '../errors/upstream.js'
import { toRpcError } from '../errors/toRpcError.js'
import { redactUrl, redactUrlsIn } from './redactUrl.js'

// Every shape a provider puts a credential in: none survives, whatever its name or length.
const WITH_CREDENTIALS: [string, string][] = [
  ['https://node.example/rpc?x-api-key=SECRETa', 'https://node.example'],
  ['https://node.example:8545/?access_key=SECRETb&chain=1', 'https://node.example:8545'],
  ['https://node.example/v1?client_id=app&client_secret=SECRETc', 'https://node.example'],
  ['wss://node.example/ws?jwt=eyJhbGciOiJIUzI1NiJ9.SECRETd.sig', 'wss://node.example'],
  ['https://node.example/SECRETe', 'https://node.example'],
  ['https://node.example/a1b2/SECRETf/', 'https://node.example'],
  ['https://user:SECRETg@node.example:443/v3/0123456789abcdef', 'https://node.example'],
  ['http://SECRETh@127.0.0.1:8545', 'http://127.0.0.1:8545'],
  ['https://node.example/rpc#SECRETi', 'https://node.example'],
  ['ws://[::1]:8546/SECRETj', 'ws://[::1]:8546'],
]

describe('redactUrl', () => {
  it('shows the scheme, host and port only', () => {
    for (const [url, shown] of WITH_CREDENTIALS) {
      expect(redactUrl(url), url).toBe(shown)
      expect(redactUrl(url)).not.toContain('SECRET')
    }
    expect(redactUrl('not a url')).toBe('<invalid URL>')
  })

  it('cuts every URL in a text the same way', () => {
    const text = WITH_CREDENTIALS.map(([url]) => `failed: ${url}, "${url}" (${url})`).join('\n')
    expect(redactUrlsIn(text)).not.toContain('SECRET')
    expect(redactUrlsIn('Failed to parse URL from https://node.example/v3/SECRET')).toBe(
      'Failed to parse URL from https://node.example',
    )
  })

  it('no upstream error a client is sent carries a URL’s credentials', () => {
    const [url] = WITH_CREDENTIALS[0]!
    const unavailable = toRpcError(new UpstreamUnavailableError(url, `connection failed (Invalid URL: ${url})`))
    expect(unavailable).toEqual({
      code: -32000,
      message: 'upstream unreachable: connection failed (Invalid URL: https://node.example)',
    })
    const refused = toRpcError(new UpstreamRpcError('eth_call', { code: -32001, message: `key not valid for ${url}` }))
    expect(refused).toEqual({ code: -32001, message: 'key not valid for https://node.example' })
  })
})
