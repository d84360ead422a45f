import type { Deadline } from './deadline.js'
import type { RpcSession } from './rpcSession.js'
import type { JsonRpcId } from './jsonRpc.js'

/** What a method reports while it works: `done` of `total` units. */
export type ProgressUpdate = {
  done: number
  total: number
  unit: 'blocks' | 'transactions'
  /** A one-line summary for logs, e.g. "trace_filter 2…40: 10 of 39 blocks traced, 31 traces sent". */
  message?: string
}

/** A progress report as transports deliver it: the update with the request it belongs to. */
export type ProgressEvent = ProgressUpdate & {
  /** The JSON-RPC id of the request (undefined for a notification). */
  id: JsonRpcId | undefined
  method: string
  /** Milliseconds since the request started. */
  elapsedMs: number
}

export type ProgressSink = (event: ProgressEvent) => void

/** What a method receives besides its params. */
export type CallContext = {
  /**
   * Reports progress of long work (a block traced, a range filtered); a no-op when nobody listens.
   * Progress also moves the request's deadline on: long work is bounded per unit, not as a whole.
   */
  progress(update: ProgressUpdate): void
  /**
   * The request's deadline (`--rpc.evmtimeout` from its start), for a method that runs several
   * executions under one budget; absent when the method is called outside the JSON-RPC core.
   */
  readonly deadline?: Deadline | undefined
  /** The connection the call came on, when it can be pushed to (eth_subscribe); none over HTTP. */
  readonly session?: RpcSession | undefined
  /** Aborts once the client that sent the call is gone (its connection closed): work for it may stop. */
  readonly signal?: AbortSignal | undefined
}
