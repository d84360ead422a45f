/** A URL in running text: its scheme (http, https, ws, wss) up to a space, a quote or a parenthesis. */
const URL_IN_TEXT = /\b(?:https?|wss?):\/\/[^\s"'`<>(){}]+/gi
/** Punctuation that ends a sentence rather than the URL. */
const TRAILING = /[.,;:!?]+$/

/**
 * An upstream URL fit for clients, logs and errors: its scheme, host and port only. The path, the
 * query and user info are left out whole — API keys hide in any of them under any name (Infura's
 * /v3/<key>, ?x-api-key=, access_key, client_secret, jwt, a short path token), so none is kept.
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.protocol}//${parsed.host}`
  } catch {
    return '<invalid URL>'
  }
}

/** Text (an error's message, an upstream's error) with every URL in it cut to its scheme, host and port. */
export function redactUrlsIn(text: string): string {
  return text.replace(URL_IN_TEXT, (match) => {
    const trailing = TRAILING.exec(match)?.[0] ?? ''
    return redactUrl(match.slice(0, match.length - trailing.length)) + trailing
  })
}
