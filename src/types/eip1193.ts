/** EIP-1193's `request` argument: a method and its params (positional, or by name). */
export type Eip1193RequestArguments = {
  /** The JSON-RPC method, e.g. `'debug_traceTransaction'`. */
  readonly method: string
  /** Its parameters: positional (an array), or by name (an object). */
  readonly params?: readonly unknown[] | object
}

/**
 * Any EIP-1193 provider: a wallet's `window.ethereum`, viem's client or transport (`request`),
 * ethers' provider wrapped as `{ request: ({ method, params }) => provider.send(method, params) }`.
 */
export type Eip1193Provider = {
  /**
   * `request({ method, params })` → the JSON-RPC result. Typed to take any provider's own
   * signature (viem's is typed by its RPC schema); edgetrace calls it with `Eip1193RequestArguments`.
   */
  request(args: never): Promise<unknown>
}
