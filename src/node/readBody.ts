import type { IncomingMessage } from 'node:http'
import type { Http2ServerRequest } from 'node:http2'

/** A request's body, or how far it went past the limit (`complete`: the client sent all of it and awaits an answer). */
export type BodyRead = { body: Buffer } | { tooLarge: number; complete: boolean } | { aborted: true }

/**
 * Reads a request's body up to `maxBytes`. Past it nothing more is kept, but the rest is read and
 * dropped — up to `discardBytes` more, for at most `discardMs` — so that a client still sending gets
 * the 413 it is owed instead of a connection reset under its feet (EPIPE). Past those bounds it is
 * answered as it stands.
 */
export function readBody(
  req: IncomingMessage | Http2ServerRequest,
  maxBytes: number,
  { discardBytes = 4 * maxBytes, discardMs = 10_000 }: { discardBytes?: number; discardMs?: number } = {},
): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    let over = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const finish = (read: BodyRead) => {
      clearTimeout(timer)
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('close', onClose)
      req.off('error', onClose)
      if ('tooLarge' in read && !read.complete) req.pause()
      resolve(read)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (!over && size > maxBytes) {
        over = true
        chunks.length = 0
        timer = setTimeout(() => finish({ tooLarge: size, complete: false }), discardMs)
      }
      if (!over) chunks.push(chunk)
      else if (size > maxBytes + discardBytes) finish({ tooLarge: size, complete: false })
    }
    const onEnd = () => finish(over ? { tooLarge: size, complete: true } : { body: Buffer.concat(chunks) })
    const onClose = () => finish(over ? { tooLarge: size, complete: false } : { aborted: true })
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('close', onClose)
    req.on('error', onClose)
  })
}
