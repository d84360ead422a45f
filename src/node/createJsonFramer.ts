import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, OPEN_BRACE, OPEN_BRACKET, QUOTE, isSpace } from '../rpc/jsonCodes.js'

/**
 * Splits a byte stream into JSON texts, as geth's IPC and the reference daemon's socket transports
 * read them (a stream of JSON values, whitespace or newlines between them or none): each complete
 * top-level value — object, array, string, number or literal — is handed on as it ends (a number or
 * a literal when a byte that cannot continue it arrives). A value over `maxBytes`, or a byte that
 * cannot start one, is an error: the connection is answered once and closed.
 */
export type JsonFramer = {
  /** Feeds bytes; returns the complete texts they finish, or the error that ends the stream. */
  push(chunk: Uint8Array): { texts: string[]; error?: string }
}

/** Bytes a number or a literal (true, false, null) is made of. */
const isBare = (b: number) =>
  (b >= 0x30 && b <= 0x39) ||
  b === 0x2d ||
  b === 0x2b ||
  b === 0x2e ||
  (b >= 0x61 && b <= 0x7a) ||
  (b >= 0x41 && b <= 0x5a)

type Mode = 'between' | 'nested' | 'string' | 'bare'

export function createJsonFramer(maxBytes: number): JsonFramer {
  let pending: Uint8Array[] = []
  let pendingBytes = 0
  let mode: Mode = 'between'
  let depth = 0
  let inString = false
  let escaped = false
  const decoder = new TextDecoder()

  const take = (piece: Uint8Array): string | undefined => {
    if (pendingBytes + piece.length > maxBytes) return undefined
    const whole = new Uint8Array(pendingBytes + piece.length)
    let at = 0
    for (const part of pending) {
      whole.set(part, at)
      at += part.length
    }
    whole.set(piece, at)
    pending = []
    pendingBytes = 0
    mode = 'between'
    return decoder.decode(whole)
  }

  return {
    push(chunk) {
      const texts: string[] = []
      let start = 0
      const finish = (end: number) => {
        const text = take(chunk.subarray(start, end))
        if (text === undefined) return false
        texts.push(text)
        start = end
        return true
      }
      for (let i = 0; i < chunk.length; i++) {
        const b = chunk[i]!
        if (mode === 'bare') {
          if (isBare(b)) continue
          if (!finish(i)) return { texts, error: 'request too large' }
          // this byte starts whatever comes next
        }
        if (mode === 'between') {
          if (isSpace(b)) continue
          start = i
          if (b === OPEN_BRACE || b === OPEN_BRACKET) {
            mode = 'nested'
            depth = 1
            inString = false
            escaped = false
          } else if (b === QUOTE) {
            mode = 'string'
            escaped = false
          } else if (isBare(b)) mode = 'bare'
          else return { texts, error: 'parse error' }
          continue
        }
        if (mode === 'string') {
          if (escaped) escaped = false
          else if (b === BACKSLASH) escaped = true
          else if (b === QUOTE && !finish(i + 1)) return { texts, error: 'request too large' }
          continue
        }
        // nested
        if (inString) {
          if (escaped) escaped = false
          else if (b === BACKSLASH) escaped = true
          else if (b === QUOTE) inString = false
          continue
        }
        if (b === QUOTE) inString = true
        else if (b === OPEN_BRACE || b === OPEN_BRACKET) depth++
        else if ((b === CLOSE_BRACE || b === CLOSE_BRACKET) && --depth === 0 && !finish(i + 1))
          return { texts, error: 'request too large' }
      }
      if (mode !== 'between') {
        const rest = chunk.subarray(start)
        pendingBytes += rest.length
        if (pendingBytes > maxBytes) return { texts, error: 'request too large' }
        pending.push(Uint8Array.from(rest))
      }
      return { texts }
    },
  }
}
