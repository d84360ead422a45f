/**
 * How long to wait before retry number `attempt + 1`, ms: exponential backoff with full jitter (so
 * clients that failed together do not come back together), unless the upstream said when
 * (Retry-After) — never longer than `retryMaxMs` either way.
 */
export function retryDelay(
  attempt: number,
  retryAfterMs: number | undefined,
  { retryBaseMs, retryMaxMs }: { retryBaseMs: number; retryMaxMs: number },
): number {
  const backoff = Math.random() * Math.min(retryMaxMs, retryBaseMs * 2 ** attempt)
  return Math.min(retryMaxMs, retryAfterMs ?? backoff)
}
