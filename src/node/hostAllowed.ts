import { isIP } from 'node:net'

/**
 * geth's virtual-host check (`--http.vhosts`), against DNS rebinding: a page on a hostname the
 * attacker controls, re-pointed at 127.0.0.1, reaches the server with that hostname in `Host`.
 * An empty or absent Host (no browser sends that), or one that is an IP address, is allowed; a
 * hostname (port stripped) must be listed, or the list hold `*`. Hostnames compare case-insensitively.
 */
export function hostAllowed(host: string | undefined, vhosts: readonly string[]): boolean {
  if (host === undefined || host === '') return true
  let name = host
  if (name.startsWith('[')) {
    const close = name.indexOf(']')
    // `[::1]` or `[::1]:8545`: an IPv6 literal is an IP whatever follows.
    if (close > 0 && isIP(name.slice(1, close)) === 6) return true
  } else if (name.indexOf(':') === name.lastIndexOf(':')) {
    // One colon at most: `host:port`; more than one is a bare IPv6 address or nonsense, kept whole.
    name = name.replace(/:[^:]*$/, '')
  }
  if (isIP(name) !== 0) return true
  if (vhosts.includes('*')) return true
  const lower = name.toLowerCase()
  return vhosts.some((v) => v.toLowerCase() === lower)
}
