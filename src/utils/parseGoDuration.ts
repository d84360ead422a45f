const UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
}

/**
 * A Go duration string ("5s", "1m30s", "300ms", "1.5h") in milliseconds, as time.ParseDuration
 * reads it (the trace `timeout` option). Throws geth's message on anything else.
 */
export function parseGoDuration(text: string): number {
  const fail = () => new Error(`time: invalid duration ${JSON.stringify(text)}`)
  let rest = text
  let sign = 1
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest[0] === '-' ? -1 : 1
    rest = rest.slice(1)
  }
  if (rest === '0') return 0
  if (rest === '') throw fail()
  let total = 0
  const part = /^(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/
  while (rest !== '') {
    const m = part.exec(rest)
    if (!m) throw fail()
    total += Number(m[1]) * UNITS[m[2]!]!
    rest = rest.slice(m[0].length)
  }
  return sign * total
}
