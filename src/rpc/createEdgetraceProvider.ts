import { ProviderRpcError } from '../errors/provider.js'
import type { Eip1193RequestArguments } from '../types/eip1193.js'
import type { Hex } from '../types/hex.js'

/**
 * The namespaces a library edgetrace serves by default: what the Node server serves on loopback
 * (only the program that made it reaches it) — eth (with edgetrace_*), vendor (erigon_*), debug,
 * trace, txpool, web3, net.
 */
export const LIBRARY_API = ['eth', 'vendor', 'debug', 'trace', 'txpool', 'web3', 'net'] as const

/** callTracer's frame (geth's shape), as `trace(hash)` answers it. */
export type CallFrame = {
  /** `CALL`, `STATICCALL`, `DELEGATECALL`, `CALLCODE`, `CREATE`, `CREATE2` or `SELFDESTRUCT`. */
  type: string
  /** The caller. */
  from: Hex
  /** The callee, or the created contract (absent when a creation failed). */
  to?: Hex
  /** Wei sent (absent for STATICCALL and DELEGATECALL). */
  value?: Hex
  /** Gas given to the frame. */
  gas: Hex
  /** Gas the frame used. */
  gasUsed: Hex
  /** Call data, or a creation's init code. */
  input: Hex
  /** Return data, or a created contract's code. */
  output?: Hex
  /** Why the frame failed (`execution reverted`, `out of gas`, …). */
  error?: string
  /** A revert's `Error(string)` reason, decoded. */
  revertReason?: string
  /** The frames it called, in order (none with `onlyTopCall`). */
  calls?: CallFrame[]
  /** With `withLog`: the logs the frame emitted. */
  logs?: {
    /** The emitting contract. */
    address: Hex
    /** The log's topics. */
    topics: Hex[]
    /** The log's data. */
    data: Hex
    /** How many of the frame's calls came before the log. */
    position?: Hex
  }[]
}

/** `trace(hash, options)`: callTracer's options. */
export type TraceOptions = {
  /** callTracer's `onlyTopCall` (no inner calls) and `withLog` (each frame's logs). */
  tracerConfig?: {
    /** The top frame only, no inner calls. */
    onlyTopCall?: boolean
    /** Each frame's logs in `logs`. */
    withLog?: boolean
  }
  /** As debug_traceTransaction's `timeout` (geth's duration: `10s`). */
  timeout?: string
}

/** One call of `previewTransactions`: eth_call's fields; `from` defaults to the previewed account. */
export type PreviewCall = {
  /** The sender (default the previewed account). */
  from?: Hex
  /** The callee; absent or null: a contract creation. */
  to?: Hex | null
  /** Call data (or `input`). */
  data?: Hex
  /** Call data (or `data`). */
  input?: Hex
  /** Wei sent. */
  value?: Hex
  /** Gas limit (default: the block's gas cap). */
  gas?: Hex
  /** Any other eth_call field (`gasPrice`, `maxFeePerGas`, `nonce`, …). */
  [field: string]: unknown
}

/** `previewTransactions`' options (edgetrace_previewTransactions' block and `options`). */
export type PreviewTransactionsOptions = {
  /** The block whose state the calls run on: a tag, number or hash (default latest). */
  block?: string
  /** The account whose asset changes are said (default the first call's `from`). */
  account?: Hex
  /** A spender or callee younger than this many days is flagged `newContract` (default 30; 0 off). */
  newContractDays?: number
  /** A callee the account sent nothing to in this many blocks is flagged `firstInteraction` (default 32; 0 off). */
  firstInteractionBlocks?: number
  /** Run after the block's first N transactions instead of at its end. */
  transactionIndex?: number
  /** The app's JSON ABIs by address: the calls' functions and custom errors are named by them (docs/preview.md). */
  abis?: Record<string, readonly unknown[]>
}

/** edgetrace_previewTransactions' answer (docs/preview.md); fields not typed here come along. */
export type PreviewTransactionsResult = {
  /** The block whose state the calls ran on. */
  block: {
    /** Its number. */
    number: Hex
    /** Its hash. */
    hash: Hex
    /** With `options.transactionIndex`: the calls ran after the block's first this many transactions. */
    transactionIndex?: number
  }
  /** `edgetrace_trust`'s answer: how the block was trusted (mode and anchor). */
  trust: unknown
  /** The account whose asset changes are said. */
  account: Hex
  /** Each call's outcome, in order. */
  calls: {
    /** Whether the call succeeded. */
    status: 'success' | 'failure'
    /** Gas it used. */
    gasUsed: Hex
    /** What it returned (a revert's data on failure). */
    returnData: Hex
    /** Logs, the revert decoded, the function named, … (docs/preview.md). */
    [field: string]: unknown
  }[]
  /** The account's balances before and after the calls: ETH (with the gas paid), ERC-20, NFTs. */
  assetChanges: {
    /** The asset. */
    token: {
      /** Its contract (`0xeeee…eeee` for ETH). */
      address: Hex
      /** `native` (ETH), `erc20`, `erc721` or `erc1155`. */
      standard: string
      /** Its symbol, read from the contract (null when it does not answer). */
      symbol: string | null
      /** Its name, read from the contract (null when it does not answer). */
      name: string | null
      /** Its decimals, read from the contract (null when it does not answer). */
      decimals: number | null
    }
    /** The amount before, after, and their difference (an NFT's: 1 owned, 0 not; null when a read did not answer). */
    value: {
      /** Before the calls. */
      pre: Hex
      /** After the calls. */
      post: Hex
      /** `post - pre`, signed. */
      diff: Hex
    } | null
    /** `tokenId` for an NFT, and the rest docs/preview.md lists. */
    [field: string]: unknown
  }[]
  /** Warnings computed from verified data: `unlimitedApproval`, `spenderIsEoa`, `newContract`, … */
  signals: {
    /** Which signal. */
    kind: string
    /** Its severity (`info`, `warning`, `danger`) and details. */
    [field: string]: unknown
  }[]
  /** Approvals before → after, and the rest docs/preview.md lists. */
  [field: string]: unknown
}

/** EIP-712 typed data, as eth_signTypedData_v4 carries it. */
export type TypedData = {
  /** The struct types by name (`EIP712Domain` included or not). */
  types: Record<string, unknown>
  /** The type of `message`. */
  primaryType: string
  /** The domain: name, version, chainId, verifyingContract, salt. */
  domain?: Record<string, unknown>
  /** The data signed. */
  message: Record<string, unknown>
}

/** edgetrace_previewTypedData's `options` (its 4th argument): the spender signals' windows. */
export type PreviewTypedDataOptions = {
  /** A spender contract younger than this many days is flagged `newContract` (default 30; 0 off; at most 36500). */
  newContractDays?: number
  /**
   * A spender the account sent nothing to in this many blocks is flagged `firstInteraction` (default 32; 0 off; at
   * most 1024).
   */
  firstInteractionBlocks?: number
}

/** edgetrace_previewTypedData's answer: `recognized`, and for a permit what the signature would allow. */
export type PreviewTypedDataResult = {
  /** Whether the typed data is a permit edgetrace knows (EIP-2612, DAI, Permit2); else decoded with no claims. */
  recognized: boolean
  /** The signing account. */
  account: Hex
  /** The spender, allowances, deadline, signals, `trust`, … (docs/preview.md). */
  [field: string]: unknown
}

/** EIP-1193's events as edgetrace emits them. */
export type EdgetraceProviderEvents = {
  /** edgetrace is serving; `chainId` is the upstream's. */
  connect: (info: { chainId: string }) => void
  /** edgetrace stopped serving (closed, or its worker ended); later requests reject with 4900. */
  disconnect: (error: ProviderRpcError) => void
  /**
   * `{ type: 'eth_subscription', data: { subscription, result } }` for eth_subscribe's notifications,
   * `{ type: 'edgetrace_progress', data }` for long requests (in the browser).
   */
  message: (message: { type: string; data: unknown }) => void
}

/**
 * What `createEdgetrace` returns, in Node and in the browser alike: an EIP-1193 provider — give it
 * to viem (`custom(edgetrace)`) or ethers (`new BrowserProvider(edgetrace)`) — whose every answer is
 * computed by edgetrace over verified state, with typed helpers for what it adds.
 */
export type EdgetraceProvider = {
  /**
   * EIP-1193: `{ method, params }` → the result; rejects with ProviderRpcError carrying the JSON-RPC
   * error's `code`, `message` and `data` (the same the Node server answers).
   */
  request(args: Eip1193RequestArguments): Promise<unknown>
  /** Adds an EIP-1193 event listener (`connect`, `disconnect`, `message`); returns the provider. */
  on<event extends keyof EdgetraceProviderEvents>(
    event: event,
    listener: EdgetraceProviderEvents[event],
  ): EdgetraceProvider
  /** Removes a listener `on` added; returns the provider. */
  removeListener<event extends keyof EdgetraceProviderEvents>(
    event: event,
    listener: EdgetraceProviderEvents[event],
  ): EdgetraceProvider
  /** Stops edgetrace (its upstream connections, its worker); later requests reject with 4900. */
  close(): Promise<void>
  /** A mined transaction's call tree (debug_traceTransaction with callTracer), on verified state. */
  trace(hash: Hex, options?: TraceOptions): Promise<CallFrame>
  /** A wallet's preview of calls before signing (edgetrace_previewTransactions): status, asset changes, signals. */
  previewTransactions(
    calls: readonly PreviewCall[],
    options?: PreviewTransactionsOptions,
  ): Promise<PreviewTransactionsResult>
  /**
   * What a signature over typed data would allow (edgetrace_previewTypedData): permits decoded and checked at
   * `block` (default `latest`); `options` sets the spender signals' windows.
   */
  previewTypedData(
    account: Hex,
    typedData: TypedData,
    block?: string,
    options?: PreviewTypedDataOptions,
  ): Promise<PreviewTypedDataResult>
}

/** What a host gives createEdgetraceProvider: its EIP-1193 core. */
export type EdgetraceProviderCore = Pick<EdgetraceProvider, 'request' | 'on' | 'removeListener' | 'close'>

/** The request's argument checked as EIP-1193 says (-32600 otherwise), before it goes anywhere. */
export function checkRequestArguments(args: unknown): asserts args is Eip1193RequestArguments {
  const a = args as Partial<Eip1193RequestArguments> | null
  if (typeof a !== 'object' || a === null || typeof a.method !== 'string') {
    throw new ProviderRpcError({ code: -32600, message: 'request expects { method: string, params?: array | object }' })
  }
  if (a.params !== undefined && (typeof a.params !== 'object' || a.params === null)) {
    throw new ProviderRpcError({ code: -32600, message: 'request: params must be an array or an object' })
  }
}

/**
 * Adds the typed helpers to a host's EIP-1193 core (the Node daemon's, the browser worker's):
 * `trace`, `previewTransactions`, `previewTypedData` — each one `request` of its method.
 */
export function createEdgetraceProvider(core: EdgetraceProviderCore): EdgetraceProvider {
  const provider: EdgetraceProvider = {
    request: (args) => core.request(args),
    on(event, listener) {
      core.on(event, listener)
      return provider
    },
    removeListener(event, listener) {
      core.removeListener(event, listener)
      return provider
    },
    close: () => core.close(),
    async trace(hash, options = {}) {
      const config: Record<string, unknown> = { tracer: 'callTracer' }
      if (options.tracerConfig) config.tracerConfig = options.tracerConfig
      if (options.timeout !== undefined) config.timeout = options.timeout
      return (await core.request({ method: 'debug_traceTransaction', params: [hash, config] })) as CallFrame
    },
    async previewTransactions(calls, options = {}) {
      const { block, ...rest } = options
      const params: unknown[] = [calls, block ?? 'latest']
      if (Object.keys(rest).length > 0) params.push(rest)
      return (await core.request({ method: 'edgetrace_previewTransactions', params })) as PreviewTransactionsResult
    },
    async previewTypedData(account, typedData, block, options) {
      const params: unknown[] = [account, typedData]
      if (block !== undefined || options !== undefined) params.push(block ?? 'latest')
      if (options !== undefined) params.push(options)
      return (await core.request({ method: 'edgetrace_previewTypedData', params })) as PreviewTypedDataResult
    },
  }
  return provider
}
