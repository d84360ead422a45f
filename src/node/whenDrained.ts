/** A writable that says when its buffer has drained, or that it closed (an HTTP response, a socket). */
type Drainable = {
  on(event: 'drain' | 'close', listener: () => void): unknown
  off(event: 'drain' | 'close', listener: () => void): unknown
}

/**
 * Resolves once `stream` drains or closes, whichever comes first: a writer that stopped on a full
 * buffer (backpressure) goes on then, and never waits forever on a client that went away.
 */
export function whenDrained(stream: Drainable): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      stream.off('drain', done)
      stream.off('close', done)
      resolve()
    }
    stream.on('drain', done)
    stream.on('close', done)
  })
}
