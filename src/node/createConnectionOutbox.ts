import type { ChunkWriter } from '../types/chunkWriter.js'

/** The bytes of one connection (a WebSocket, an IPC or TCP socket), as the outbox drives them. */
export type OutboxTransport = {
  /**
   * Writes a piece of one message; `last` ends the message (a WebSocket frame's FIN, a socket's
   * newline). False when the transport holds enough unsent: the writer waits for `drained`.
   */
  write(chunk: string, last: boolean): boolean
  /**
   * Resolves once what was written has gone out to the client (or the connection closed); at once
   * when the transport is not holding back (no drain to wait for).
   */
  drained(): Promise<void>
  /** Bytes written and not yet taken by the client. */
  buffered(): number
  /** Stop / start reading the client's requests. */
  pause(): void
  resume(): void
  /** Ends the connection: a message was cut off mid-way, nothing more can be framed after it. */
  destroy(reason: string): void
  readonly closed: boolean
}

export type CreateConnectionOutboxParameters = {
  transport: OutboxTransport
  /** Answers one request text, its answer's text written in chunks (false when nothing is owed). */
  handle(text: string, write: ChunkWriter): Promise<boolean>
  /** Requests of the connection being answered at once; past it the client is not read (default 64). */
  maxInFlight?: number
  /**
   * Bytes waiting for the client (unread answers and notifications); past it the client is not read
   * until it takes them (default 16 MiB, the unread bound of notifications).
   */
  maxQueuedBytes?: number
  /** Answers up to this size are sent whole; a bigger one streams as one message (default 256 KiB). */
  streamThreshold?: number
  /** Told when nothing is in flight or waiting any more (a half-closed client's socket can end). */
  onIdle?: () => void
}

export type ConnectionOutbox = {
  /** A request text read from the client: answered now, or once the connection's bounds allow. */
  receive(text: string): void
  /** A whole message (a notification, a framing error's answer), sent in its turn. */
  send(text: string): Promise<void>
  /** Bytes waiting for the client: unsent by the transport, and whole messages waiting their turn. */
  queuedBytes(): number
  /** Requests being answered or waiting to be. */
  readonly pending: number
}

/**
 * One connection's answers (WebSocket, IPC, TCP). Messages go out one at a time, each whole — a big
 * answer streams as one message (WebSocket fragments of one message, a socket's bytes up to its
 * newline) while it is computed, waiting for the client to take what was sent (backpressure), so
 * neither a huge answer nor a client that does not read makes the server's memory grow. A client
 * pipelining requests gets `maxInFlight` answered at a time, and is not read while that many are in
 * flight or more than `maxQueuedBytes` wait for it unread; the other connections are served meanwhile.
 */
export function createConnectionOutbox({
  transport,
  handle,
  maxInFlight = 64,
  maxQueuedBytes = 16 * 1024 * 1024,
  streamThreshold = 256 * 1024,
  onIdle,
}: CreateConnectionOutboxParameters): ConnectionOutbox {
  /** The message going out holds the turn; the others wait in line for it. */
  let line: Promise<void> = Promise.resolve()
  let turns = 0
  /** Whole messages waiting for their turn, in bytes. */
  let waiting = 0
  let inFlight = 0
  const backlog: string[] = []
  let paused = false
  let watching = false

  const queuedBytes = () => transport.buffered() + waiting

  function takeTurn(): Promise<() => void> {
    turns++
    let done!: () => void
    const mine = new Promise<void>((resolve) => {
      done = resolve
    })
    const before = line
    line = line.then(() => mine)
    return before.then(() => () => {
      turns--
      done()
    })
  }

  /** Starts what the bounds allow, and reads the client again once under them. */
  function pump() {
    while (backlog.length > 0 && inFlight < maxInFlight && queuedBytes() < maxQueuedBytes && !transport.closed)
      start(backlog.shift()!)
    const over = backlog.length > 0 || inFlight >= maxInFlight || queuedBytes() >= maxQueuedBytes
    if (over && !paused) {
      paused = true
      transport.pause()
    } else if (!over && paused) {
      paused = false
      transport.resume()
    }
    // Unread bytes over the bound: look again once the client has taken some.
    if (paused && !watching && queuedBytes() >= maxQueuedBytes && !transport.closed) {
      watching = true
      // A timer between looks: what waits its turn is not the transport's, and no drain tells of it.
      transport.drained().then(() =>
        setTimeout(() => {
          watching = false
          pump()
        }, 10),
      )
    }
    if (inFlight === 0 && backlog.length === 0) onIdle?.()
  }

  async function sendWhole(text: string): Promise<void> {
    if (turns === 0) {
      transport.write(text, true)
      return
    }
    waiting += text.length
    const release = await takeTurn()
    waiting -= text.length
    try {
      if (!transport.closed) transport.write(text, true)
    } finally {
      release()
    }
  }

  function start(text: string) {
    inFlight++
    answer(text)
      .catch(() => transport.destroy('internal error'))
      .finally(() => {
        inFlight--
        pump()
      })
  }

  async function answer(text: string): Promise<void> {
    let held: string[] = []
    let heldBytes = 0
    let release: (() => void) | undefined
    /** The last piece, kept back so that the one ending the message carries its end. */
    let last: string | undefined
    try {
      const owed = await handle(text, async (chunk) => {
        if (transport.closed) throw new Error('the client went away')
        if (!release) {
          held.push(chunk)
          heldBytes += chunk.length
          if (heldBytes < streamThreshold) return
          // Big: it streams, as one message, once the messages before it are out.
          release = await takeTurn()
          if (transport.closed) throw new Error('the client went away')
          chunk = held.join('')
          held = []
        }
        if (last !== undefined && !transport.write(last, false)) await transport.drained()
        last = chunk
      })
      if (release) {
        if (!transport.closed) transport.write(last ?? '', true)
      } else if (owed && !transport.closed) await sendWhole(held.join(''))
    } catch (err) {
      // A message begun and not ended leaves nothing the client could read after it.
      if (release) transport.destroy('an answer failed while it was sent')
      throw err
    } finally {
      release?.()
    }
  }

  return {
    receive(text) {
      backlog.push(text)
      pump()
    },
    send: sendWhole,
    queuedBytes,
    get pending() {
      return inFlight + backlog.length
    },
  }
}
