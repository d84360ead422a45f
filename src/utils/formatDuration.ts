/** Go's time.Duration formatting for the common cases ("5s", "5m0s", "1.5s"), as geth prints timeouts. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`
  const totalSeconds = ms / 1000
  const minutes = Math.floor(totalSeconds / 60)
  const seconds = totalSeconds - minutes * 60
  const s = Number.isInteger(seconds) ? `${seconds}s` : `${seconds.toFixed(3).replace(/0+$/, '')}s`
  return minutes > 0 ? `${minutes}m${s}` : s
}
