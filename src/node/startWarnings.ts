import { isLoopback } from './parseCliArgs.js'

/**
 * What the server must warn about when it starts: listening beyond loopback, and above all serving
 * the debug namespace there (its runtime controls and unbounded replays are for the machine's owner).
 */
export function startWarnings(host: string, api: readonly string[]): string[] {
  if (isLoopback(host)) return []
  const out = [
    `WARNING: listening on ${host}, which is not a loopback address: anyone who can reach it can use this daemon`,
  ]
  if (api.includes('debug')) {
    out.push(
      `WARNING: the debug namespace is enabled on ${host}: anyone who can reach it can change edgetrace's memory limits, empty its caches and start long replays; serve debug on 127.0.0.1 only`,
    )
  }
  return out
}
