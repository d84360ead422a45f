import { RpcError, ServerRpcError } from '../errors/rpc.js'
import type { RangeWorkers } from '../types/rangeWorkers.js'
import type { ServiceWorkerMessage, TracerRelayReply } from './serviceWorkerProtocol.js'

/** What the relay needs of the service worker's scope: its window clients by id. */
export type RelayClients = {
  get(id: string): Promise<{ postMessage(message: unknown, transfer: Transferable[]): void } | undefined>
}

/**
 * A service worker's JavaScript tracers. It cannot start the Web Workers they must run on (an
 * endless tracer is ended by ending its worker), so each request with one is relayed to a page it
 * controls that offered to host them (registerEdgetraceServiceWorker with `tracerWorker`): the
 * page runs it whole on a hardened worker of its own, and ends that worker when told to abort.
 */
export function createTracerRelay(clients: RelayClients): RangeWorkers & {
  /** A page that hosts tracers (the newest is asked first). */
  addHost(clientId: string): void
} {
  const hosts: string[] = []
  async function host() {
    for (let i = hosts.length - 1; i >= 0; i--) {
      const client = await clients.get(hosts[i]!)
      if (client) return client
      hosts.splice(i, 1) // closed
    }
    throw new ServerRpcError(
      'JavaScript tracers in the service worker run on a page that hosts them, and none is open (registerEdgetraceServiceWorker with tracerWorker)',
    )
  }
  return {
    size: 1,
    minBlocks: Number.POSITIVE_INFINITY,
    addHost(clientId) {
      if (!hosts.includes(clientId)) hosts.push(clientId)
    },
    async run(text, signal) {
      signal?.throwIfAborted()
      const client = await host()
      const { port1, port2 } = new MessageChannel()
      try {
        return await new Promise<string>((resolve, reject) => {
          const onAbort = () => {
            port1.postMessage({ abort: true })
            reject(signal?.reason)
          }
          signal?.addEventListener('abort', onAbort, { once: true })
          port1.onmessage = (event: MessageEvent<TracerRelayReply>) => {
            signal?.removeEventListener('abort', onAbort)
            const reply = event.data
            if ('text' in reply) resolve(reply.text)
            else reject(new RpcError(reply.error.code, reply.error.message))
          }
          client.postMessage({ type: 'edgetrace:run-tracer', text } satisfies ServiceWorkerMessage, [port2])
        })
      } finally {
        port1.close()
      }
    },
    hasFree: () => hosts.length > 0,
    warmUp() {},
  }
}
