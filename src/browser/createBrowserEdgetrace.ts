import { ProviderRpcError } from '../errors/provider.js'
import {
  type EdgetraceProvider,
  LIBRARY_API,
  checkRequestArguments,
  createEdgetraceProvider,
} from '../rpc/createEdgetraceProvider.js'
import type { Eip1193Provider } from '../types/eip1193.js'
import { connectEdgetraceWorker } from './connectEdgetraceWorker.js'
import type { EdgetraceConfig, PageUpstream } from './createEdgetraceService.js'
import { createEip1193Provider } from './createEip1193Provider.js'

/**
 * The worker's script beside this module in dist/browser/. `new URL('…', import.meta.url)` with the
 * name written out, so an app's bundler (Vite, webpack 5, Parcel) copies edgetrace.worker.js into its
 * build as an asset and points the URL at the copy; made apart from `new Worker(…)`, which bundlers
 * would take as a worker of their own to build (and fail on the ready-built IIFE).
 */
const workerBeside = (): URL => new URL('./edgetrace.worker.js', import.meta.url)

/** `createEdgetrace`'s options in the browser: the worker's config (EdgetraceConfig), with providers allowed as upstreams. */
export type CreateBrowserEdgetraceOptions = Omit<EdgetraceConfig, 'upstream' | 'harden' | 'rangeWorker'> & {
  /**
   * Where state is read from: a URL (`http(s)://`, `ws(s)://`) of any node with `eth_getProof` that
   * answers this page's origin (CORS); an EIP-1193 provider of the page (a wallet's
   * `window.ethereum`, viem's client or transport, ethers' provider wrapped as
   * `{ request: ({ method, params }) => provider.send(method, params) }`), whose calls the worker
   * asks through the page; or a list of these as fallbacks (each call goes to the first entry that
   * answers; one that cannot be reached is skipped for 30 s). Everything is verified all the same.
   */
  upstream: string | Eip1193Provider | readonly (string | Eip1193Provider)[]
  /**
   * The edgetrace worker: a Worker already made, or the URL of `edgetrace.worker.js` (package export
   * `edgetrace/worker`, served from this page's origin). Default: `edgetrace.worker.js` beside this
   * module (dist/browser/), which a page served from the package's files, or a bundler that follows
   * `new URL(…, import.meta.url)`, finds.
   */
  worker?: Worker | string | URL | undefined
  /**
   * Namespaces served (as `--http.api`); default eth (with edgetrace_*), vendor, debug, trace,
   * txpool, web3, net — only this page reaches its worker.
   */
  api?: readonly string[]
}

/**
 * edgetrace as a library in the browser: the daemon in a Web Worker (its IndexedDB cache, its
 * verification, every namespace), in front of `upstream`, behind an EIP-1193 provider — the same API
 * as in Node. Resolves once the worker started; rejects with EdgetraceStartError when it cannot (a
 * bad option: -32602 naming it; an upstream nobody answers and the cache never met).
 *
 * ```ts
 * const edgetrace = await createEdgetrace({ upstream: window.ethereum })
 * const client = createPublicClient({ transport: custom(edgetrace) })
 * const tree = await edgetrace.trace(hash)
 * ```
 *
 * With a page's provider among the upstreams, long ranges stay in the one worker and JavaScript
 * tracers are refused: the workers they run on could not reach the page's provider.
 */
export async function createBrowserEdgetrace(options: CreateBrowserEdgetraceOptions): Promise<EdgetraceProvider> {
  if (typeof options !== 'object' || options === null) {
    throw new ProviderRpcError({ code: -32602, message: 'createEdgetrace expects options: { upstream, … }' })
  }
  const { upstream, worker, api = LIBRARY_API, ...config } = options
  // Providers stay in the page; the worker's config names each by its place ({ page: i }).
  const providers: Eip1193Provider[] = []
  const entryOf = (entry: string | Eip1193Provider): string | PageUpstream => {
    if (typeof entry === 'string') return entry
    // Not a provider: passed on as it is, for the worker's check to refuse by its place.
    if (typeof entry !== 'object' || entry === null || typeof entry.request !== 'function')
      return entry as unknown as string
    providers.push(entry)
    return { page: providers.length - 1 }
  }
  const list = Array.isArray(upstream)
  const entries = (list ? upstream : [upstream]).map(entryOf)
  const target =
    worker === undefined
      ? new Worker(workerBeside())
      : typeof worker === 'string' || worker instanceof URL
        ? new Worker(worker)
        : worker
  const client = await connectEdgetraceWorker(
    target,
    { ...config, api, upstream: !list && typeof entries[0] === 'string' ? entries[0] : entries },
    { pageUpstreams: providers },
  )
  const provider = createEip1193Provider(client)
  return createEdgetraceProvider({
    request(args) {
      checkRequestArguments(args)
      return provider.request(args)
    },
    on(event, listener) {
      provider.on(event, listener as never)
      return this as never
    },
    removeListener(event, listener) {
      provider.removeListener(event, listener as never)
      return this as never
    },
    close: () => provider.close(),
  })
}
