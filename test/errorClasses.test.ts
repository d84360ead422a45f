import { describe, expect, it } from 'vitest'
import { ProviderRpcError } from '../src/browser/createEip1193Provider.js'
import { EdgetraceStartError } from '../src/browser/connectEdgetraceWorker.js'
import { BaseError } from '../src/errors/base.js'
import { toRpcError } from '../src/errors/toRpcError.js'
import { CliError } from '../src/node/parseCliArgs.js'
import { RetryableError } from '../src/upstream/RetryableError.js'

// Domain errors are BaseErrors (one type to walk causes by, one wire mapping), keeping their names
// and messages; ParamError (-32602 control flow) and Abandoned (never seen) stay plain Errors.
describe('domain error classes', () => {
  it('are BaseErrors with their own name, message and fields', () => {
    const retry = new RetryableError('HTTP 429', 1000, 429)
    expect(retry).toBeInstanceOf(BaseError)
    expect(retry).toMatchObject({
      name: 'RetryableError',
      message: 'HTTP 429',
      shortMessage: 'HTTP 429',
      retryAfterMs: 1000,
      status: 429,
    })
    expect(toRpcError(retry)).toEqual({ code: -32000, message: 'HTTP 429' })

    const cli = new CliError('--port x: not a number')
    expect(cli).toBeInstanceOf(BaseError)
    expect(cli).toMatchObject({ name: 'CliError', message: '--port x: not a number' })

    const start = new EdgetraceStartError({ code: -32602, message: 'bad config' })
    expect(start).toBeInstanceOf(BaseError)
    expect(start).toMatchObject({
      name: 'EdgetraceStartError',
      message: 'bad config',
      error: { code: -32602, message: 'bad config' },
    })

    const provider = new ProviderRpcError({ code: 3, message: 'execution reverted', data: '0x01' })
    expect(provider).toBeInstanceOf(BaseError)
    expect(provider).toMatchObject({ name: 'ProviderRpcError', message: 'execution reverted', code: 3, data: '0x01' })
  })
})
