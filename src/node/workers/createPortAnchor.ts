import type { MessagePort } from 'node:worker_threads'
import type { ExecutionAnchor } from '../../chain/createHeaderStore.js'
import { type RemoteAnchorHead, answerAnchorHead, createRemoteAnchor } from '../../chain/createRemoteAnchor.js'

type Tag = Parameters<ExecutionAnchor['head']>[0]

/** A worker asking the main thread which block consensus vouches for under a tag (ids are strings: store requests' are numbers). */
export type PortAnchorRequest = { op: 'anchor'; id: string; tag: Tag }
export type PortAnchorReply = { op: 'anchor'; id: string } & RemoteAnchorHead

/**
 * A worker thread's anchor: the main thread's, asked over the MessagePort of the task being run
 * (`port()`), so a worker resolves tags and numbers through the same light client as the main
 * daemon — never through the upstream's word (createRemoteAnchor, the browser's pool workers' too).
 * Between tasks there is no port, and no head.
 */
export function createPortAnchor(port: () => MessagePort | undefined): ExecutionAnchor {
  let nextId = 0
  return createRemoteAnchor((tag) => {
    const p = port()
    if (!p) return Promise.reject(new Error('the consensus anchor is reached through a task, and none is running'))
    const id = `a${nextId++}`
    return new Promise<RemoteAnchorHead>((resolve, reject) => {
      const done = () => {
        p.off('message', onMessage)
        p.off('close', onClose)
      }
      const onMessage = (reply: PortAnchorReply) => {
        if (reply.op !== 'anchor' || reply.id !== id) return
        done()
        resolve(reply)
      }
      const onClose = () => {
        done()
        reject(new Error('the task ended before the main thread said which block is the head'))
      }
      p.on('message', onMessage)
      p.on('close', onClose)
      p.postMessage({ op: 'anchor', id, tag } satisfies PortAnchorRequest)
    })
  })
}

/** The main thread's side: answers a worker's anchor request from `anchor`. */
export function answerAnchorRequest(port: MessagePort, anchor: ExecutionAnchor, request: PortAnchorRequest): void {
  void answerAnchorHead(anchor, request.tag).then((answer) =>
    port.postMessage({ op: 'anchor', id: request.id, ...answer } satisfies PortAnchorReply),
  )
}
