import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { DEV_ACCOUNT, rpc, rpcResult, waitForReceipt } from './src/rpc.js'

// A contract as the sender of a call — a smart account simulating from its own address: geth and the
// reference daemon run calls without the transaction checks, so EIP-3607 does not refuse it. Against
// anvil, before EIP-7702 (cancun) and after (prague); the sender's code stays what it is meanwhile.
const RUNTIME = '600760005260206000f3' // returns 7
const INIT = `0x600a600c600039600a6000f3${RUNTIME}`

for (const hardfork of ['cancun', 'prague']) {
  describe(`a call from a contract (${hardfork})`, () => {
    let anvil: AnvilInstance
    let edge: RunningEdgetrace
    let contract: string
    beforeAll(async () => {
      anvil = await startAnvil({ hardfork })
      const hash = await rpcResult(anvil.url, 'eth_sendTransaction', [
        { from: DEV_ACCOUNT, data: INIT, gas: '0x30000' },
      ])
      contract = (await waitForReceipt(anvil.url, hash)).contractAddress
      edge = await startEdgetrace({ upstream: anvil.url, port: 0, hardfork, api: ['eth', 'debug', 'trace'] })
    }, 60_000)
    afterAll(async () => {
      await edge?.close()
      await anvil?.stop()
    })

    it('answers eth_call, eth_estimateGas and traces as anvil does, the sender’s code intact', async () => {
      const toItself = { from: contract, to: contract, data: '0x' }
      const transfer = { from: contract, to: DEV_ACCOUNT, value: '0x0' }
      expect(await rpc(edge.url, 'eth_call', [toItself, 'latest'])).toEqual(
        await rpc(anvil.url, 'eth_call', [toItself, 'latest']),
      )
      expect(await rpcResult(edge.url, 'eth_call', [toItself, 'latest'])).toBe(`0x${'0'.repeat(63)}7`)
      expect(await rpcResult(edge.url, 'eth_estimateGas', [transfer])).toBe(
        await rpcResult(anvil.url, 'eth_estimateGas', [transfer]),
      )
      const prestate = await rpcResult(edge.url, 'debug_traceCall', [toItself, 'latest', { tracer: 'prestateTracer' }])
      expect(prestate[contract].code).toBe(`0x${RUNTIME}`)
      const diff = await rpcResult(edge.url, 'debug_traceCall', [
        toItself,
        'latest',
        { tracer: 'prestateTracer', tracerConfig: { diffMode: true } },
      ])
      // Its nonce moved, its code did not.
      expect(diff.post[contract]?.code).toBeUndefined()
      const traced = await rpcResult(edge.url, 'trace_call', [toItself, ['trace'], 'latest'])
      expect(traced.output).toBe(`0x${'0'.repeat(63)}7`)
    })
  })
}
