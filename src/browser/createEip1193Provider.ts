import { ProviderRpcError } from '../errors/provider.js'
import { RpcError } from '../errors/rpc.js'
import type { ProgressEvent } from '../types/progress.js'
import type { JsonRpcResponse } from '../types/jsonRpc.js'
import { createListeners } from '../utils/createListeners.js'
import type { EdgetraceClient } from './connectEdgetraceWorker.js'
import {
  type AbiHook,
  type Eip1193Wallet,
  PREVIEWED_METHODS,
  type WalletPreview,
  previewWalletRequest,
} from './previewWalletRequest.js'

/** EIP-1193's error: a JSON-RPC error's code, message and data, or one of the provider codes (4900: disconnected). */
export { ProviderRpcError }

export type Eip1193RequestArguments = { readonly method: string; readonly params?: readonly unknown[] | object }

type Events = {
  connect: (info: { chainId: string }) => void
  disconnect: (error: ProviderRpcError) => void
  chainChanged: (chainId: string) => void
  accountsChanged: (accounts: string[]) => void
  /**
   * EIP-1193 messages: `{ type: 'eth_subscription', data: { subscription, result } }` for
   * eth_subscribe's notifications, `{ type: 'edgetrace_progress', data: ProgressEvent }` for long requests.
   */
  message: (message: { type: string; data: unknown }) => void
}

/**
 * The app's gate before the wallet is asked: handed the request and its preview, it resolves true to
 * forward the request to the wallet, anything else to refuse it (EIP-1193 4001).
 */
export type PreviewHook = (request: Eip1193RequestArguments, result: WalletPreview) => boolean | Promise<boolean>

/**
 * With a wallet: the methods that are the wallet's own (its accounts, its chain, its signatures, its
 * `wallet_*` methods) go to it; everything else is read through edgetrace.
 */
const WALLET_METHODS: ReadonlySet<string> = new Set([
  'eth_accounts',
  'eth_requestAccounts',
  'eth_coinbase',
  'eth_chainId',
  'eth_sign',
  'personal_sign',
  'personal_ecRecover',
  'eth_signTransaction',
  'eth_signTypedData',
  'eth_signTypedData_v1',
  'eth_signTypedData_v3',
])
const PREVIEWED: ReadonlySet<string> = new Set(PREVIEWED_METHODS)
const routesToWallet = (method: string) => WALLET_METHODS.has(method) || method.startsWith('wallet_')

export type EdgetraceEip1193Provider = {
  request(args: Eip1193RequestArguments): Promise<unknown>
  on<event extends keyof Events>(event: event, listener: Events[event]): EdgetraceEip1193Provider
  removeListener<event extends keyof Events>(event: event, listener: Events[event]): EdgetraceEip1193Provider
  /** Whether the upstream answered last time (EIP-1193 `isConnected`-style, as several wallets offer). */
  isConnected(): boolean
  /** Ends the worker; later requests fail with 4900. */
  close(): Promise<void>
}

/**
 * An EIP-1193 provider over an edgetrace client (the worker): `request({ method, params })` resolves
 * with the result or rejects with ProviderRpcError carrying the JSON-RPC error's code, message and
 * data — the same errors the Node server answers. `connect` is emitted once started and whenever the
 * upstream is reachable again, `disconnect` (4900) when it becomes unreachable or the provider is
 * closed, `message` with `edgetrace_progress` while long requests run. Works as viem's `custom()`
 * transport and as ethers' `BrowserProvider`.
 *
 * With `{ wallet, preview }` it wraps the app's own wallet provider: eth_sendTransaction,
 * wallet_sendCalls (EIP-5792) and eth_signTypedData_v4 are previewed first (previewWalletRequest:
 * edgetrace_previewTransactions in the worker; typed data decoded) and handed to `preview`; the wallet
 * is asked only when it resolves true, else the request fails with 4001 "User rejected the request.".
 * The wallet's own methods (accounts, chain, signing, `wallet_*`) go to it as they are, its
 * `accountsChanged` and `chainChanged` are passed on; every other method is read through edgetrace.
 * With `abi`, the app is asked for the JSON ABI of each address a transaction calls, and the preview
 * names the calls' functions and custom errors by it (see AbiHook).
 */
export function createEip1193Provider(
  client: EdgetraceClient,
  options?: { wallet: Eip1193Wallet; preview: PreviewHook; abi?: AbiHook | undefined },
): EdgetraceEip1193Provider {
  if (options !== undefined) {
    if (typeof options?.wallet?.request !== 'function') {
      throw new ProviderRpcError({ code: -32602, message: 'options.wallet: expected an EIP-1193 provider (request)' })
    }
    if (typeof options.preview !== 'function') {
      throw new ProviderRpcError({ code: -32602, message: 'options.preview: expected a function (request, result)' })
    }
    if (options.abi !== undefined && typeof options.abi !== 'function') {
      throw new ProviderRpcError({ code: -32602, message: 'options.abi: expected a function (address) => JSON ABI' })
    }
  }
  const listeners = createListeners<Events>()
  const emit = listeners.emit
  const chainId = client.started.chainId
  let connected = client.started.reachable
  client.on('reachability', (reachable, reason) => {
    if (reachable === connected) return
    connected = reachable
    if (reachable) emit('connect', { chainId })
    else
      emit(
        'disconnect',
        new ProviderRpcError({
          code: 4900,
          message: `edgetrace's upstream is unreachable${reason ? `: ${reason}` : ''}; cached data is still served`,
        }),
      )
  })
  client.on('progress', (event: ProgressEvent) => emit('message', { type: 'edgetrace_progress', data: event }))
  // EIP-1193's subscriptions: each notification of an eth_subscribe made through the provider.
  client.on('notification', (params) => emit('message', { type: 'eth_subscription', data: params }))
  // EIP-1193: `connect` once the provider can serve (listeners added right after creation hear it).
  if (connected) queueMicrotask(() => emit('connect', { chainId }))

  const wallet = options?.wallet
  const walletEvents = {
    accountsChanged: (accounts: string[]) => emit('accountsChanged', accounts),
    chainChanged: (id: string) => emit('chainChanged', id),
  }
  for (const [event, listener] of Object.entries(walletEvents)) wallet?.on?.(event, listener as never)

  /** A previewed request: to the wallet only once the app's hook approved what it does. */
  async function gated(wallet: Eip1193Wallet, hook: PreviewHook, args: Eip1193RequestArguments) {
    let result: WalletPreview
    try {
      result = await previewWalletRequest(client, wallet, args, options?.abi)
    } catch (err) {
      if (err instanceof RpcError) throw new ProviderRpcError({ code: err.code, message: err.shortMessage })
      throw err
    }
    if ((await hook(args, result)) !== true) {
      throw new ProviderRpcError({ code: 4001, message: 'User rejected the request.' })
    }
    return wallet.request(args)
  }

  let nextId = 1
  const provider: EdgetraceEip1193Provider = {
    async request(args) {
      if (typeof args !== 'object' || args === null || typeof args.method !== 'string') {
        throw new ProviderRpcError({
          code: -32600,
          message: 'request expects { method: string, params?: array | object }',
        })
      }
      if (client.closed) throw new ProviderRpcError({ code: 4900, message: 'the edgetrace provider is closed' })
      if (wallet && options) {
        if (PREVIEWED.has(args.method)) return gated(wallet, options.preview, args)
        if (routesToWallet(args.method)) return wallet.request(args)
      }
      const res = (await client.request({
        jsonrpc: '2.0',
        id: nextId++,
        method: args.method,
        params: args.params ?? [],
      })) as JsonRpcResponse
      if ('error' in res) throw new ProviderRpcError(res.error)
      return res.result
    },
    on(event, listener) {
      listeners.add(event, listener)
      return provider
    },
    removeListener(event, listener) {
      listeners.remove(event, listener)
      return provider
    },
    isConnected: () => connected && !client.closed,
    async close() {
      for (const [event, listener] of Object.entries(walletEvents)) wallet?.removeListener?.(event, listener as never)
      await client.close()
      emit('disconnect', new ProviderRpcError({ code: 4900, message: 'the edgetrace provider is closed' }))
    },
  }
  return provider
}
