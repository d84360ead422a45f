const SECRET_PARAMS = /^(key|api[-_]?key|apikey|token|access[-_]?token|secret|auth|password|pass|pwd|sig|signature)$/i
const TOKEN_SEGMENT = /^[A-Za-z0-9_-]{20,}$/

/**
 * An upstream URL fit for logs and errors: user info removed, query values of credential-like
 * parameters and path segments that look like API keys (Infura's /v3/<key>, Alchemy's /v2/<key>)
 * replaced by `***`.
 */
export function redactUrl(url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return '<invalid URL>'
  }
  parsed.username = ''
  parsed.password = ''
  parsed.pathname = parsed.pathname
    .split('/')
    .map((segment) => (TOKEN_SEGMENT.test(segment) && /\d/.test(segment) ? '***' : segment))
    .join('/')
  for (const name of [...parsed.searchParams.keys()]) {
    if (SECRET_PARAMS.test(name)) parsed.searchParams.set(name, '***')
  }
  let out = parsed.toString().replace(/%2A%2A%2A/g, '***')
  // URL adds a '/' path to a bare origin; keep the URL as it was written.
  const hadPath = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*[/?#]/i.test(url)
  if (!hadPath) out = out.replace(/\/$/, '')
  return out
}
