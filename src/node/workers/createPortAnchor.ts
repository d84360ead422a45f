import type { MessagePort } from 'node:worker_threads'
import type { ExecutionAnchor } from '../../chain/createHeaderStore.js'
import { RpcError } from '../../errors/rpc.js'
import { toRpcError } from '../../errors/toRpcError.js'
import type { Hex } from '../../types/hex.js'
import type { JsonRpcErrorObject } from '../../types/jsonRpc.js'

type Tag = Parameters<ExecutionAnchor['head']>[0]

/** A worker asking the main thread which block consensus vouches for under a tag (ids are strings: store requests' are numbers). */
export type PortAnchorRequest = { op: 'anchor'; id: string; tag: Tag }
export type PortAnchorReply =
  | { op: 'anchor'; id: string; head: { number: string; hash: Hex } }
  | { op: 'anchor'; id: string; error: JsonRpcErrorObject }

/**
 * A worker thread's anchor: the main thread's, asked over the MessagePort of the task being run
 * (`port()`), so a worker resolves tags and numbers through the same light client as the main
 * daemon — never through the upstream's word. Its error (a beacon node that does not verify, or
 * that does not answer) is the worker's. Between tasks there is no port, and no head.
 */
export function createPortAnchor(port: () => MessagePort | undefined): ExecutionAnchor {
  let nextId = 0
  return {
    head(tag) {
      const p = port()
      if (!p) return Promise.reject(new Error('the consensus anchor is reached through a task, and none is running'))
      const id = `a${nextId++}`
      return new Promise((resolve, reject) => {
        const done = () => {
          p.off('message', onMessage)
          p.off('close', onClose)
        }
        const onMessage = (reply: PortAnchorReply) => {
          if (reply.op !== 'anchor' || reply.id !== id) return
          done()
          if ('error' in reply) reject(new RpcError(reply.error.code, reply.error.message, { data: reply.error.data }))
          else resolve({ number: BigInt(reply.head.number), hash: reply.head.hash })
        }
        const onClose = () => {
          done()
          reject(new Error('the task ended before the main thread said which block is the head'))
        }
        p.on('message', onMessage)
        p.on('close', onClose)
        p.postMessage({ op: 'anchor', id, tag } satisfies PortAnchorRequest)
      })
    },
    // A worker serves no edgetrace_trust: the main daemon says what anchors it.
    report: () => ({
      checkpoint: null,
      beaconNode: null,
      finalized: null,
      optimistic: null,
      syncCommitteePeriod: null,
      participation: null,
    }),
  }
}

/** The main thread's side: answers a worker's anchor request from `anchor`. */
export function answerAnchorRequest(port: MessagePort, anchor: ExecutionAnchor, request: PortAnchorRequest): void {
  anchor.head(request.tag).then(
    (head) =>
      port.postMessage({
        op: 'anchor',
        id: request.id,
        head: { number: head.number.toString(), hash: head.hash },
      } satisfies PortAnchorReply),
    (err: unknown) =>
      port.postMessage({ op: 'anchor', id: request.id, error: toRpcError(err) } satisfies PortAnchorReply),
  )
}
