import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
  isSpace,
} from './jsonCodes.js'

/** What a scan found of one request of a message. */
export type ScannedRequest = {
  /** Its text is `text.slice(start, end)` (exact for arrays and objects; the start only for scalars). */
  start: number
  end: number
  /** Its deepest nesting of arrays and objects: 1 for a flat request object, 0 for a bare scalar. */
  depth: number
  /** The JSON text of its `id` member as received (the last one, as JSON.parse keeps); undefined without one. */
  id: string | undefined
  /**
   * The JSON text of its `jsonrpc` and `method` members, likewise: with `id`, what tells a
   * notification (never answered) from a call, without parsing the request.
   */
  jsonrpc: string | undefined
  method: string | undefined
}

export type JsonTextScan = {
  /** The message is a batch (a JSON array of requests) rather than one request. */
  batch: boolean
  /** One entry per request, in order (one for a single request). */
  requests: ScannedRequest[]
  /**
   * Every bracket closed, every string ended and nothing after the message. Only then do `requests`
   * describe it; a scan is not a validation: whatever else is wrong JSON.parse will say, and
   * isJsonText for the requests cut out unparsed.
   */
  complete: boolean
}

function trimmed(text: string, start: number, end: number): string {
  while (start < end && isSpace(text.charCodeAt(start))) start++
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--
  return text.slice(start, end)
}

/** A member name as JSON.parse reads it (escapes decoded); undefined if it is not a valid string. */
function memberName(raw: string): string | undefined {
  if (!raw.includes('\\')) return raw.slice(1, -1)
  try {
    return JSON.parse(raw) as string
  } catch {
    return undefined
  }
}

/**
 * Where the string opened at `open` ends (its closing quote), or -1 if it does not. Found with
 * indexOf, which is native and fast on long hex strings: a quote is the end unless an odd number of
 * backslashes precedes it.
 */
function stringEnd(text: string, open: number): number {
  let at = open
  for (;;) {
    at = text.indexOf('"', at + 1)
    if (at < 0) return -1
    let slashes = 0
    while (text.charCodeAt(at - 1 - slashes) === BACKSLASH) slashes++
    if (slashes % 2 === 0) return at
  }
}

/**
 * One linear pass over a JSON-RPC message's text, without building it and without recursion: how
 * deep each request nests (brackets counted outside strings, escapes honoured) and the raw text of
 * each request's id, jsonrpc and method members. It lets the handler refuse an over-deep request
 * (or drop it, a notification) before anything parses or walks it, and echo ids exactly as they
 * were written (`1e400`, `1.50`, 30-digit numbers), as geth does with its json.RawMessage ids.
 */
export function scanJsonText(text: string): JsonTextScan {
  const n = text.length
  let i = 0
  while (i < n && isSpace(text.charCodeAt(i))) i++
  const batch = text.charCodeAt(i) === OPEN_BRACKET
  /** Nesting at which requests sit: inside the batch's array, or at the top. */
  const base = batch ? 1 : 0
  const requests: ScannedRequest[] = []
  let depth = 0
  /** The message's outermost array or object has closed: only whitespace may follow. */
  let closedTop = false
  let complete = true
  /** The request being scanned, and where it is among its own members (when it is an object). */
  let current: ScannedRequest | undefined
  let isObject = false
  let expectName = false
  let name: string | undefined
  let valueStart = -1

  const open = (at: number) => {
    if (!batch && requests.length > 0) complete = false
    current = { start: at, end: at, depth: 0, id: undefined, jsonrpc: undefined, method: undefined }
    requests.push(current)
    isObject = false
  }
  /** At a request object's own level, the member just ended at `at` (a `,` or its `}`). */
  const endMember = (at: number) => {
    if (valueStart >= 0 && (name === 'id' || name === 'jsonrpc' || name === 'method'))
      current![name] = trimmed(text, valueStart, at)
    name = undefined
    valueStart = -1
    expectName = true
  }

  for (; i < n; i++) {
    const c = text.charCodeAt(i)
    if (closedTop && !isSpace(c)) {
      complete = false
      break
    }
    if (c === QUOTE) {
      const start = i
      i = stringEnd(text, i)
      if (i < 0) {
        complete = false
        break
      }
      if (depth === base && !current) open(start)
      else if (current && isObject && depth === base + 1 && expectName) {
        name = memberName(text.slice(start, i + 1))
        expectName = false
      }
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (depth === base) {
        if (current) complete = false
        open(i)
        isObject = c === OPEN_BRACE
        expectName = isObject
        name = undefined
        valueStart = -1
      }
      depth++
      if (current && depth - base > current.depth) current.depth = depth - base
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (depth === base + 1 && current && isObject) endMember(i)
      if (depth === base && current) current = undefined // a scalar request ended by the batch's `]`
      depth--
      if (depth < 0) {
        complete = false
        break
      }
      if (depth === base && current) {
        current.end = i + 1
        current = undefined
      }
      if (depth === 0) closedTop = true
    } else if (c === COMMA) {
      if (depth === base + 1 && current && isObject) endMember(i)
      else if (depth === base) current = undefined
    } else if (c === COLON) {
      if (depth === base + 1 && current && isObject) valueStart = i + 1
    } else if (!isSpace(c) && depth === base && !current) {
      open(i) // a number or literal where a request should be
    }
  }
  if (depth !== 0 || (batch && !closedTop) || (!batch && requests.length === 0)) complete = false
  return { batch, requests, complete }
}
