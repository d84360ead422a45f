import { RpcError } from '../errors/rpc.js'
import { toRpcError } from '../errors/toRpcError.js'
import type { Hex } from '../types/hex.js'
import type { JsonRpcErrorObject } from '../types/jsonRpc.js'
import type { ExecutionAnchor } from './createHeaderStore.js'

type Tag = Parameters<ExecutionAnchor['head']>[0]

/** An anchor's head as it crosses to another thread: the number as a decimal string, or the error as JSON-RPC's. */
export type RemoteAnchorHead = { head: { number: string; hash: Hex } } | { error: JsonRpcErrorObject }

/** The daemon's side: its anchor's head under `tag`, in the form that crosses threads (never rejects). */
export function answerAnchorHead(anchor: ExecutionAnchor, tag: Tag): Promise<RemoteAnchorHead> {
  return anchor.head(tag).then(
    (head) => ({ head: { number: head.number.toString(), hash: head.hash } }),
    (err: unknown) => ({ error: toRpcError(err) }),
  )
}

/**
 * A pool worker's anchor: another daemon's (the one that started it), asked through `ask`, so the
 * worker resolves tags and numbers through the same light client — never through the upstream's word,
 * and without a light client of its own. Its error (a beacon node that does not verify, or does not
 * answer) is the worker's.
 */
export function createRemoteAnchor(ask: (tag: Tag) => Promise<RemoteAnchorHead>): ExecutionAnchor {
  return {
    async head(tag) {
      const answer = await ask(tag)
      if ('error' in answer) throw new RpcError(answer.error.code, answer.error.message, { data: answer.error.data })
      return { number: BigInt(answer.head.number), hash: answer.head.hash }
    },
    // A worker serves no edgetrace_trust: the daemon that started it says what anchors it.
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
