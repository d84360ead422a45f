/**
 * fetch refuses URLs with credentials: the URL's user info, taken out of it, becomes a Basic
 * Authorization header (headers given explicitly win). A URL without user info is kept as written.
 * Throws on an invalid URL.
 */
export function withBasicAuth(
  url: string,
  headers: Record<string, string>,
): { url: string; headers: Record<string, string> } {
  const parsed = new URL(url)
  if (!parsed.username && !parsed.password) return { url, headers }
  const user = decodeURIComponent(parsed.username)
  const pass = decodeURIComponent(parsed.password)
  parsed.username = ''
  parsed.password = ''
  return { url: parsed.toString(), headers: { authorization: `Basic ${btoa(`${user}:${pass}`)}`, ...headers } }
}
