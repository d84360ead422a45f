/**
 * Splits a byte stream into JSON texts, as geth's IPC and the reference daemon's socket transports
 * read them (a stream of JSON values, whitespace or newlines between them or none): each complete
 * top-level object or array is handed on as it closes. A value over `maxBytes`, or a byte that
 * cannot start one, is an error: the connection is answered once and closed.
 */
export type JsonFramer = {
  /** Feeds bytes; returns the complete texts they finish, or the error that ends the stream. */
  push(chunk: Uint8Array): { texts: string[]; error?: string }
}

const OPEN_OBJECT = 0x7b
const OPEN_ARRAY = 0x5b
const CLOSE_OBJECT = 0x7d
const CLOSE_ARRAY = 0x5d
const QUOTE = 0x22
const BACKSLASH = 0x5c
const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09

export function createJsonFramer(maxBytes: number): JsonFramer {
  let pending: Uint8Array[] = []
  let pendingBytes = 0
  let depth = 0
  let inString = false
  let escaped = false
  const decoder = new TextDecoder()

  return {
    push(chunk) {
      const texts: string[] = []
      let start = 0
      for (let i = 0; i < chunk.length; i++) {
        const b = chunk[i]!
        if (depth === 0) {
          if (isSpace(b)) {
            start = i + 1
            continue
          }
          if (b !== OPEN_OBJECT && b !== OPEN_ARRAY) return { texts, error: 'parse error' }
          start = i
          depth = 1
          continue
        }
        if (inString) {
          if (escaped) escaped = false
          else if (b === BACKSLASH) escaped = true
          else if (b === QUOTE) inString = false
          continue
        }
        if (b === QUOTE) inString = true
        else if (b === OPEN_OBJECT || b === OPEN_ARRAY) depth++
        else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
          depth--
          if (depth === 0) {
            const piece = chunk.subarray(start, i + 1)
            if (pendingBytes + piece.length > maxBytes) return { texts, error: 'request too large' }
            pending.push(piece)
            const whole = new Uint8Array(pendingBytes + piece.length)
            let at = 0
            for (const part of pending) {
              whole.set(part, at)
              at += part.length
            }
            texts.push(decoder.decode(whole))
            pending = []
            pendingBytes = 0
            start = i + 1
          }
        }
      }
      if (depth > 0) {
        const rest = chunk.subarray(start)
        pendingBytes += rest.length
        if (pendingBytes > maxBytes) return { texts, error: 'request too large' }
        pending.push(Uint8Array.from(rest))
      }
      return { texts }
    },
  }
}
