/** An origin split as geth's WebSocket origin check does: each part lower-cased, '' where absent. */
type OriginParts = { scheme: string; hostname: string; port: string }

/**
 * `scheme://host:port` (a full origin) or `host[:port]` (a rule without scheme). The port is kept as
 * written, not defaulted: like geth, a rule without a port matches any port, and a rule with one
 * matches only an origin naming that port.
 */
function parseOrigin(text: string): OriginParts {
  let rest = text.trim().toLowerCase()
  let scheme = ''
  const sep = rest.indexOf('://')
  if (sep >= 0) {
    scheme = rest.slice(0, sep)
    rest = rest.slice(sep + 3)
  }
  rest = rest.replace(/[/?#].*$/s, '').replace(/^.*@/s, '')
  if (rest.startsWith('[')) {
    const close = rest.indexOf(']')
    if (close < 0) return { scheme, hostname: rest, port: '' }
    const after = rest.slice(close + 1)
    return { scheme, hostname: rest.slice(1, close), port: after.startsWith(':') ? after.slice(1) : '' }
  }
  const colon = rest.lastIndexOf(':')
  return colon < 0
    ? { scheme, hostname: rest, port: '' }
    : { scheme, hostname: rest.slice(0, colon), port: rest.slice(colon + 1) }
}

/** geth's rule match: every part the rule names must equal the origin's (case-insensitively). */
function ruleAllows(rule: string, origin: OriginParts): boolean {
  const allowed = parseOrigin(rule)
  if (allowed.scheme !== '' && allowed.scheme !== origin.scheme) return false
  if (allowed.hostname !== '' && allowed.hostname !== origin.hostname) return false
  if (allowed.port !== '' && allowed.port !== origin.port) return false
  return true
}

/**
 * Whether a browser's `Origin` is allowed by a list of rules (`--ws.origins`, `--http.corsdomain`):
 * `*` allows any; `https://app.example` that scheme and host on any port; `http://localhost:3000`
 * exactly that; `app.example` that host under any scheme. Comparison ignores case, as geth's does.
 */
export function originAllowed(origin: string, rules: readonly string[]): boolean {
  if (rules.includes('*')) return true
  const parts = parseOrigin(origin)
  return rules.some((rule) => rule !== '' && ruleAllows(rule, parts))
}
