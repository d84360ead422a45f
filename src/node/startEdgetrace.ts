import type { GethGenesis } from '@ethereumjs/common'
import { type Edgetrace, createEdgetrace } from '../createEdgetrace.js'
import type { EngineOptions } from '../exec/createEngine.js'
import { createUpstream } from '../upstream/createUpstream.js'
import type { Upstream } from '../upstream/types.js'
import { type EdgetraceServer, createServer } from './createServer.js'

export type StartEdgetraceParameters = {
  upstream: string
  host?: string
  port?: number
  api?: readonly string[]
  corsDomains?: readonly string[]
  batchLimit?: number
  genesis?: GethGenesis | undefined
  hardfork?: string | undefined
  engine?: Partial<EngineOptions>
  log?: (line: string) => void
}

export type RunningEdgetrace = Edgetrace & EdgetraceServer & { upstream: Upstream }

/** Starts the Node server in front of an upstream (used by the CLI, the tests and the benchmark). */
export async function startEdgetrace({
  upstream: upstreamUrl,
  host = '127.0.0.1',
  port = 8545,
  api,
  corsDomains,
  batchLimit,
  genesis,
  hardfork,
  engine,
  log,
}: StartEdgetraceParameters): Promise<RunningEdgetrace> {
  const upstream = createUpstream({ url: upstreamUrl, ...(log ? { onLog: log } : {}) })
  try {
    const daemon = await createEdgetrace({
      upstream,
      ...(api ? { api } : {}),
      ...(batchLimit !== undefined ? { batchLimit } : {}),
      genesis,
      hardfork,
      engine: { ...(log ? { progress: log } : {}), ...engine },
      onInternalError: (err, method) => log?.(`internal error in ${method}: ${err instanceof Error ? err.stack : String(err)}`),
    })
    const server = await createServer({ handler: daemon.handler, host, port, ...(corsDomains ? { corsDomains } : {}) })
    return {
      ...daemon,
      ...server,
      upstream,
      close: async () => {
        await server.close()
        await upstream.close()
      },
    }
  } catch (err) {
    await upstream.close()
    throw err
  }
}
