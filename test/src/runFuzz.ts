import { type Socket, connect } from 'node:net'
import { WebSocket } from 'ws'
import { createJsonFramer } from '../../src/node/createJsonFramer.js'
import { type FuzzContext, type FuzzRequest, checkAnswer, createFuzzer, createPrng } from './fuzzRequests.js'

export type FuzzFinding = { key: string; count: number; examples: { problem: string; request: string }[] }

export type FuzzReport = {
  seed: number
  http: number
  ws: number
  /** Requests over the IPC socket. */
  socket: number
  findings: FuzzFinding[]
  /** Problems by request label: how often each kind of request went wrong. */
  ms: number
}

export type RunFuzzParameters = {
  url: string
  wsUrl: string
  seed: number
  /** Requests over HTTP. */
  count: number
  /** Requests over WebSocket (after the HTTP ones). */
  wsCount: number
  /** The IPC socket's path, and how many requests go over it (after the WebSocket ones). */
  socketPath?: string | undefined
  socketCount?: number
  context: FuzzContext
  /** HTTP requests in flight at once. */
  concurrency?: number
  /** Longest wait for one answer, ms. */
  timeoutMs?: number
  onProgress?: (done: number, total: number) => void
}

/** Problems are written `<cause> — <details>`: one cause is one finding. */
function keyOf(problem: string): string {
  return problem.split(' — ')[0]!.slice(0, 160)
}

/**
 * Sends `count` generated requests over HTTP and `wsCount` over one WebSocket, and checks every
 * answer against what it is owed (fuzzRequests.ts). Findings are grouped by cause, a few examples each.
 */
export async function runFuzz({
  url,
  wsUrl,
  seed,
  count,
  wsCount,
  socketPath,
  socketCount = 0,
  context,
  concurrency = 4,
  timeoutMs = 30_000,
  onProgress,
}: RunFuzzParameters): Promise<FuzzReport> {
  const started = performance.now()
  const fuzzer = createFuzzer(createPrng(seed), context)
  const findings = new Map<string, FuzzFinding>()
  const record = (request: FuzzRequest, problems: string[]) => {
    for (const problem of problems) {
      const key = keyOf(problem)
      const finding = findings.get(key) ?? { key, count: 0, examples: [] }
      finding.count++
      if (finding.examples.length < 3)
        finding.examples.push({ problem: problem.slice(0, 600), request: request.text.slice(0, 300) })
      findings.set(key, finding)
    }
  }

  // Generated up front, in order, so a seed always means the same requests whatever the timing.
  const httpRequests = Array.from({ length: count }, () => fuzzer.request())
  const wsRequests: FuzzRequest[] = []
  while (wsRequests.length < wsCount) {
    const r = fuzzer.request()
    if (!r.httpOnly) wsRequests.push(r)
  }

  let done = 0
  let next = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < httpRequests.length) {
        const request = httpRequests[next++]!
        const controller = new AbortController()
        const timer = setTimeout(() => controller.abort(), timeoutMs)
        try {
          const res = await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: request.text,
            signal: controller.signal,
          })
          record(request, checkAnswer(request, res.status, await res.text()))
        } catch (err) {
          record(request, [
            `${request.label}: ${controller.signal.aborted ? `no answer within ${timeoutMs} ms` : 'connection failed'} — ${(err as Error).message}`,
          ])
        } finally {
          clearTimeout(timer)
        }
        onProgress?.(++done, count + wsCount)
      }
    }),
  )

  if (wsCount > 0) {
    const socket = new WebSocket(wsUrl, { maxPayload: 64 * 1024 * 1024 })
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve())
      socket.once('error', reject)
    })
    const inbox: string[] = []
    let waiter: (() => void) | undefined
    let closed = false
    socket.on('message', (data) => {
      inbox.push(data.toString())
      waiter?.()
    })
    socket.on('close', () => {
      closed = true
      waiter?.()
    })
    const nextMessage = async (): Promise<string | undefined> => {
      const deadline = Date.now() + timeoutMs
      while (inbox.length === 0 && !closed && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, deadline - Date.now())
          waiter = () => {
            clearTimeout(timer)
            resolve()
          }
        })
        waiter = undefined
      }
      return inbox.shift()
    }
    let sentinel = 0
    for (const request of wsRequests) {
      if (closed) {
        record(request, [`${request.label}: the WebSocket was closed by the server — over WebSocket`])
        break
      }
      socket.send(request.text)
      // A message owed nothing is followed by a sentinel call: the next message must answer that.
      const owesNothing =
        request.expect.kind === 'nothing' ||
        (request.expect.kind === 'batch' && request.expect.entries.every((e) => e.optional))
      const sentinelId = `sentinel-${++sentinel}`
      if (owesNothing)
        socket.send(JSON.stringify({ jsonrpc: '2.0', id: sentinelId, method: 'web3_clientVersion', params: [] }))
      const message = await nextMessage()
      if (message === undefined) {
        record(request, [
          `${request.label}: no WebSocket answer within ${timeoutMs} ms — ${closed ? 'socket closed' : 'socket open'}`,
        ])
      } else if (owesNothing && message.includes(`"${sentinelId}"`)) {
        record(request, checkAnswer(request, 200, ''))
      } else {
        record(
          request,
          checkAnswer(request, 200, message).map((p) => `${p} (over WebSocket)`),
        )
        if (owesNothing) await nextMessage()
      }
      onProgress?.(++done, count + wsCount)
    }
    socket.close()
  }

  // The IPC socket: a stream of JSON texts. A text that does not close a JSON value would wait for
  // the rest (a partial frame, as any stream reader would); those are left to the framing tests.
  // One that cannot start one is answered with a parse error and its connection closed: the next
  // request opens another.
  let socketSent = 0
  if (socketPath && socketCount > 0) {
    const socketRequests: { request: FuzzRequest; endsConnection: boolean }[] = []
    while (socketRequests.length < socketCount) {
      const r = fuzzer.request()
      if (r.httpOnly) continue
      const framed = createJsonFramer(context.maxBodyBytes).push(new TextEncoder().encode(r.text))
      if (framed.texts.length === 1 || framed.error) socketRequests.push({ request: r, endsConnection: !!framed.error })
    }
    let socket: Socket | undefined
    let buffered = ''
    const lines: string[] = []
    let closed = true
    let wake: (() => void) | undefined
    const open = async () => {
      socket = connect(socketPath)
      closed = false
      buffered = ''
      lines.length = 0
      socket.on('data', (d) => {
        buffered += d
        const parts = buffered.split('\n')
        buffered = parts.pop()!
        lines.push(...parts)
        wake?.()
      })
      socket.on('close', () => {
        closed = true
        wake?.()
      })
      socket.on('error', () => undefined)
      await new Promise((resolve) => socket!.once('connect', resolve))
    }
    const nextLine = async () => {
      const deadline = Date.now() + timeoutMs
      while (lines.length === 0 && !closed && Date.now() < deadline)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, deadline - Date.now())
          wake = () => {
            clearTimeout(timer)
            resolve()
          }
        })
      wake = undefined
      return lines.shift()
    }
    let sentinel = 0
    for (const { request, endsConnection } of socketRequests) {
      if (closed) await open()
      socket!.write(request.text)
      const owesNothing =
        request.expect.kind === 'nothing' ||
        (request.expect.kind === 'batch' && request.expect.entries.every((e) => e.optional))
      const sentinelId = `sentinel-${++sentinel}`
      if (owesNothing)
        socket!.write(JSON.stringify({ jsonrpc: '2.0', id: sentinelId, method: 'web3_clientVersion', params: [] }))
      const line = await nextLine()
      if (line === undefined) record(request, [`${request.label}: no IPC answer within ${timeoutMs} ms — over IPC`])
      else if (owesNothing && line.includes(`"${sentinelId}"`)) record(request, checkAnswer(request, 200, ''))
      else {
        record(
          request,
          checkAnswer(request, 200, line).map((p) => `${p} (over IPC)`),
        )
        if (owesNothing) await nextLine()
      }
      // A framing error is answered and the connection closed: wait for the close before the next.
      if (endsConnection) while (!closed && (await nextLine()) !== undefined);
      socketSent++
      onProgress?.(++done, count + wsCount + socketCount)
    }
    socket?.destroy()
  }

  return {
    seed,
    http: count,
    ws: wsRequests.length,
    socket: socketSent,
    findings: [...findings.values()].sort((a, b) => b.count - a.count),
    ms: Math.round(performance.now() - started),
  }
}

/** A readable summary of a run: the seed, and each finding with its count and first example. */
export function formatFuzzReport(report: FuzzReport): string {
  const lines = [
    `fuzz: seed ${report.seed}, ${report.http} requests over HTTP, ${report.ws} over WebSocket and ${report.socket} over IPC in ${(report.ms / 1000).toFixed(1)} s: ${report.findings.length === 0 ? 'no findings' : `${report.findings.length} findings`}`,
  ]
  for (const f of report.findings) {
    lines.push(`  ${f.count}× ${f.key}`)
    for (const e of f.examples.slice(0, 2)) lines.push(`      ${e.problem}\n        request: ${e.request}`)
  }
  return lines.join('\n')
}
