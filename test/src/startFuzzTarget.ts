import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startAnvil } from '../../src/node/devnet/startAnvil.js'
import { startEdgetrace } from '../../src/node/startEdgetrace.js'
import { createProxy } from './createProxy.js'
import type { FuzzContext } from './fuzzRequests.js'
import { DEV_ACCOUNT, deploy, rpcResult, storageContractInitCode, waitForReceipt } from './rpc.js'
import { timedRpc } from './timedRpc.js'

const MAX_BODY_BYTES = 5 * 1024 * 1024

/**
 * What the fuzzer aims at: anvil with a contract and a mined transaction, a proxy counting the
 * upstream traffic, and an edgetrace server (every namespace it serves) in front of it.
 */
export async function startFuzzTarget() {
  const anvil = await startAnvil()
  try {
    const contract = await deploy(anvil.url, storageContractInitCode(7))
    const txHash = await rpcResult(anvil.url, 'eth_sendTransaction', [{ from: DEV_ACCOUNT, to: contract, data: '0x' }])
    const receipt = await waitForReceipt(anvil.url, txHash)
    const proxy = await createProxy(anvil.url)
    const internalErrors: string[] = []
    /** A daemon on the proxy with every namespace the fuzzer aims at, its socket listener at `socketUrl`. */
    const serve = (socketUrl: string) =>
      startEdgetrace({
        upstream: proxy.url,
        port: 0,
        hardfork: 'prague',
        api: ['eth', 'debug', 'trace', 'web3', 'net'],
        engine: { evmTimeoutMs: 5000 },
        socketUrl,
        log: (line) => {
          if (line.startsWith('internal error')) internalErrors.push(line.split('\n').slice(0, 3).join(' | '))
        },
      })
    const edge = await serve(`unix://${join(tmpdir(), `edgetrace-fuzz-${process.pid}.ipc`)}`)
    // The raw TCP framing: a second daemon on the same upstream (one socket listener a daemon).
    const tcp = await serve('tcp://127.0.0.1:0')
    const context: FuzzContext = {
      contract,
      account: DEV_ACCOUNT,
      block: receipt.blockNumber,
      txHash,
      maxBodyBytes: MAX_BODY_BYTES,
    }

    /** After a run: the server still answers, and still batches its upstream calls. */
    async function checkStillServing(): Promise<string[]> {
      const problems: string[] = []
      const chainId = await timedRpc(edge.url, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }, 10_000)
      if (chainId.kind !== 'answer' || (chainId.json as { result?: string })?.result !== '0x7a69') {
        problems.push(
          `eth_chainId after the run: ${chainId.kind === 'answer' ? chainId.text.slice(0, 200) : chainId.kind}`,
        )
      }
      // A cold call at a new block needs the header and several proofs: one batch when healthy.
      await rpcResult(anvil.url, 'evm_mine', [])
      const before = proxy.log.length
      const call = await timedRpc(
        edge.url,
        { jsonrpc: '2.0', id: 2, method: 'eth_call', params: [{ to: contract, data: '0x' }, 'latest'] },
        10_000,
      )
      if (call.kind !== 'answer' || (call.json as { result?: string })?.result !== `0x${'7'.padStart(64, '0')}`) {
        problems.push(`a cold eth_call after the run: ${call.kind === 'answer' ? call.text.slice(0, 200) : call.kind}`)
      }
      const calls = proxy.log.slice(before)
      const requests = new Set(calls.map((c) => c.request)).size
      if (calls.length > 1 && requests === calls.length) {
        problems.push(
          `upstream batching is off after the run: a cold eth_call took ${calls.length} calls in ${requests} HTTP requests`,
        )
      }
      for (const line of internalErrors) problems.push(`logged ${line.slice(0, 300)}`)
      return problems
    }

    return {
      url: edge.url,
      wsUrl: edge.wsUrl,
      socketPath: edge.socketUrl!.slice('unix://'.length),
      socketUrl: edge.socketUrl!,
      tcpUrl: tcp.socketUrl!,
      /** The daemons' deadline for one request (ms). */
      evmTimeoutMs: 5000,
      context,
      proxy,
      internalErrors,
      checkStillServing,
      stop: async () => {
        await edge.close()
        await tcp.close()
        await proxy.stop()
        await anvil.stop()
      },
    }
  } catch (err) {
    await anvil.stop()
    throw err
  }
}
