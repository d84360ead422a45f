/** JSON-RPC errors that say "later" (EIP-1474 limit exceeded, providers' rate limits): sent again. */
export function isRetryableRpcError(error: { code?: unknown; message?: unknown }): boolean {
  return (
    error.code === -32005 || (typeof error.message === 'string' && /rate.?limit|too many requests/i.test(error.message))
  )
}
