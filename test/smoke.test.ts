import { afterAll, beforeAll, expect, it } from 'vitest'
import { txByLabel, withDevnetAndEdgetrace } from './src/devnet.js'
import { rpcResult } from './src/rpc.js'

// The end-to-end smoke of `npm run test:quick` (and a file of the whole suite like any other): the
// embedded devnet (anvil, its contracts and transactions), an edgetrace server in front of it, and
// traces asked over HTTP as a client asks them, checked against anvil's receipts and its own trace.

let devnet: Awaited<ReturnType<typeof withDevnetAndEdgetrace>>
beforeAll(async () => {
  devnet = await withDevnetAndEdgetrace({ api: ['eth', 'debug', 'trace'] })
})
afterAll(() => devnet?.stop())

it('a devnet transaction traced through edgetrace: the gas and the calls anvil mined', async () => {
  const edge = devnet.edge.url
  const anvil = devnet.devnet.anvil.url
  const tx = txByLabel(devnet.devnet, 'nested token calls (transferFrom, transfer, balanceOf)')
  const receipt = await rpcResult(anvil, 'eth_getTransactionReceipt', [tx.hash])

  const structLogs = await rpcResult(edge, 'debug_traceTransaction', [tx.hash, { disableStorage: true }])
  expect(structLogs.failed).toBe(false)
  expect(structLogs.gas).toBe(Number(receipt.gasUsed))
  expect(structLogs.structLogs.length).toBeGreaterThan(100)

  const calls = await rpcResult(edge, 'debug_traceTransaction', [tx.hash, { tracer: 'callTracer' }])
  const anvilCalls = await rpcResult(anvil, 'debug_traceTransaction', [tx.hash, { tracer: 'callTracer' }])
  const shape = (frame: any): unknown => ({
    type: frame.type,
    from: frame.from.toLowerCase(),
    to: frame.to?.toLowerCase(),
    input: frame.input,
    output: frame.output,
    calls: (frame.calls ?? []).map(shape),
  })
  expect(calls.calls.length).toBeGreaterThan(0)
  expect(shape(calls)).toEqual(shape(anvilCalls))

  const reverted = txByLabel(devnet.devnet, 'revert with Error(string)')
  const revertTrace = await rpcResult(edge, 'trace_transaction', [reverted.hash])
  expect(revertTrace[0].error).toBe('Reverted')
})
