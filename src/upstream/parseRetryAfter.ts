/** An HTTP Retry-After value (seconds, or a date) in ms from now; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined): number | undefined {
  if (!value) return undefined
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now())
}
