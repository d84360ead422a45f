import { type Socket, connect } from 'node:net'
import { WebSocket } from 'ws'

/**
 * One JSON-RPC connection over a stream transport as a fuzz client sees it: WebSocket (a message a
 * frame), or IPC / TCP (JSON values, each answer followed by a newline). `send` writes a text as it
 * is; `next` gives the next answer text, or undefined when none came before `deadline` (ms since
 * the epoch) or the connection closed.
 */
export type StreamClient = {
  readonly kind: 'WebSocket' | 'IPC' | 'TCP'
  send(text: string): void
  next(deadline: number): Promise<string | undefined>
  readonly closed: boolean
  close(): void
}

/** A stream client on `url`: `ws://…`, `unix:///path` or `tcp://host:port`. */
export async function openStreamClient(url: string): Promise<StreamClient> {
  const inbox: string[] = []
  let closed = false
  let wake: (() => void) | undefined
  const arrived = () => wake?.()
  const next = async (deadline: number): Promise<string | undefined> => {
    while (inbox.length === 0 && !closed && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()))
        wake = () => {
          clearTimeout(timer)
          resolve()
        }
      })
      wake = undefined
    }
    return inbox.shift()
  }

  if (url.startsWith('ws')) {
    const socket = new WebSocket(url, { maxPayload: 256 * 1024 * 1024 })
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve())
      socket.once('error', reject)
    })
    socket.on('message', (data) => {
      inbox.push(data.toString())
      arrived()
    })
    socket.on('close', () => {
      closed = true
      arrived()
    })
    socket.on('error', () => undefined)
    return {
      kind: 'WebSocket',
      send: (text) => socket.send(text),
      next,
      get closed() {
        return closed
      },
      close: () => socket.terminate(),
    }
  }

  const socket: Socket = url.startsWith('unix://')
    ? connect(url.slice('unix://'.length))
    : connect({ host: new URL(url).hostname, port: Number(new URL(url).port) })
  socket.setEncoding('utf8')
  // Chunks are kept until a newline ends a text: a 100 MB answer is joined once, not re-split per chunk.
  let pending: string[] = []
  socket.on('data', (chunk: string) => {
    let from = 0
    for (let at = chunk.indexOf('\n'); at >= 0; at = chunk.indexOf('\n', from)) {
      pending.push(chunk.slice(from, at))
      const text = pending.join('')
      pending = []
      if (text !== '') inbox.push(text)
      from = at + 1
    }
    if (from < chunk.length) pending.push(chunk.slice(from))
    arrived()
  })
  socket.on('close', () => {
    closed = true
    arrived()
  })
  socket.on('error', () => undefined)
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve())
    socket.once('error', reject)
  })
  return {
    kind: url.startsWith('unix://') ? 'IPC' : 'TCP',
    send: (text) => {
      socket.write(text)
    },
    next,
    get closed() {
      return closed
    },
    close: () => socket.destroy(),
  }
}
