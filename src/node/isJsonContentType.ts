/** geth's accepted media types for a JSON-RPC POST (json-rpc-over-http's historical ones too). */
const ACCEPTED = new Set(['application/json', 'application/json-rpc', 'application/jsonrequest'])

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+"
// type/subtype, then `; name=value` parameters (value a token or a quoted string), as RFC 9110 and
// Go's mime.ParseMediaType accept them; anything malformed is refused, as geth refuses it.
const MEDIA_TYPE = new RegExp(
  `^\\s*(${TOKEN}/${TOKEN})\\s*(?:;\\s*${TOKEN}\\s*=\\s*(?:${TOKEN}|"(?:[^"\\\\]|\\\\.)*")\\s*)*;?\\s*$`,
)

/**
 * Whether a POST's Content-Type lets it be executed. A missing one does not (geth answers 415): a
 * cross-origin page can send `text/plain` without a CORS preflight, but not `application/json`.
 */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false
  const m = MEDIA_TYPE.exec(header)
  return m !== null && ACCEPTED.has(m[1]!.toLowerCase())
}
