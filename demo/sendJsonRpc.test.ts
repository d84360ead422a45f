import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningEdgetrace } from '../src/node/startEdgetrace.js'
import { withDevnetAndEdgetrace } from '../test/src/devnet.js'
import { EXAMPLES, sendJsonRpc } from './sendJsonRpc.js'

let edge: RunningEdgetrace
let stop: () => Promise<void>

beforeAll(async () => {
  ;({ edge, stop } = await withDevnetAndEdgetrace({ api: ['eth', 'web3', 'debug', 'trace'] }))
})
afterAll(() => stop())

describe('demo console', () => {
  it.each(Object.keys(EXAMPLES))('its %s example is answered by edgetrace on the devnet', async (method) => {
    const out = await sendJsonRpc(edge.url, method, JSON.stringify(EXAMPLES[method]))
    expect(out.ok, out.text).toBe(true)
  })

  it('shows errors instead of throwing', async () => {
    expect(await sendJsonRpc(edge.url, 'eth_call', '[{')).toMatchObject({ ok: false, summary: 'params are not JSON' })
    expect(await sendJsonRpc(edge.url, 'debug_traceCall', '[]')).toMatchObject({ ok: false })
    expect(await sendJsonRpc('http://127.0.0.1:1', 'eth_blockNumber', '[]')).toMatchObject({ ok: false })
  })
})
