import type { JsonRpcErrorObject } from '../types/jsonRpc.js'
import { BaseError } from './base.js'

/**
 * EIP-1193's error, as edgetrace's providers reject: the JSON-RPC error's `code`, `message` and
 * `data` (the same the Node server answers), or one of EIP-1193's provider codes (4001 refused,
 * 4900 disconnected, 4901 another chain).
 */
export class ProviderRpcError extends BaseError {
  override name = 'ProviderRpcError'
  /** The JSON-RPC error code, or EIP-1193's (4001 refused, 4900 disconnected, 4901 another chain). */
  readonly code: number
  /** The JSON-RPC error's `data` as the server answered it (undefined: none). */
  readonly data: unknown
  constructor({ code, message, data }: JsonRpcErrorObject) {
    super(message)
    this.code = code
    this.data = data
  }
}
