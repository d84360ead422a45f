import type { ExecutionPayloadHeader } from '../../chain/beacon/lightClientContainers.js'
import { executionPayloadHeaderOf } from './executionPayloadHeaderOf.js'

type RpcBlock = Record<string, unknown> & { hash: string; parentHash: string; number: string }

/** Blocks fetched in one JSON-RPC batch at most. */
const BATCH = 256

/** A batch of calls to `url`, each answer's result (null where the node has none, as for a block it lacks). */
async function batch(url: string, calls: { method: string; params: unknown[] }[]): Promise<unknown[]> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(calls.map((c, id) => ({ jsonrpc: '2.0', id, ...c }))),
    signal: AbortSignal.timeout(30_000),
  })
  if (!res.ok) throw new Error(`execution node ${url}: HTTP ${res.status}`)
  const answers = (await res.json()) as { id: number; result?: unknown; error?: { message: string } }[]
  if (!Array.isArray(answers)) throw new Error(`execution node ${url}: no batch answer`)
  return calls.map((c, id) => {
    const a = answers.find((x) => x.id === id)
    if (!a || a.error) throw new Error(`execution node ${url}: ${c.method}: ${a?.error?.message ?? 'no answer'}`)
    return a.result ?? null
  })
}

const byNumber = (n: number) => ({ method: 'eth_getBlockByNumber', params: [`0x${n.toString(16)}`, false] })

/**
 * The blocks of an execution node as a beacon chain carries them, kept in step on demand: `catchUp()`
 * fetches the blocks mined since (one batch per 256), and when the node's chain changed under the
 * blocks already seen (a devnet reverted to a snapshot), drops them from where they part and says
 * from which number (`onReorg`). Concurrent calls share catch-ups, none begun before the call.
 */
export function followExecutionChain(url: string, { onReorg }: { onReorg?: (fromNumber: number) => void } = {}) {
  const blocks: RpcBlock[] = []
  let inFlight: Promise<number> | undefined
  let next: Promise<number> | undefined

  async function fetchRange(from: number, to: number): Promise<RpcBlock[]> {
    const out: RpcBlock[] = []
    for (let start = from; start <= to; start += BATCH) {
      const end = Math.min(to, start + BATCH - 1)
      const got = await batch(
        url,
        Array.from({ length: end - start + 1 }, (_, i) => byNumber(start + i)),
      )
      for (const [i, b] of got.entries()) {
        if (b === null) throw new Error(`execution node ${url}: no block ${start + i}`)
        out.push(b as RpcBlock)
      }
    }
    return out
  }

  async function step(): Promise<number> {
    // The node's latest, and the newest block seen as the node has it now (one round trip).
    const last = blocks.length - 1
    const [latestHex, lastNow] = await batch(url, [
      { method: 'eth_blockNumber', params: [] },
      ...(last >= 0 ? [byNumber(last)] : []),
    ])
    const latest = Number(latestHex)
    if (last >= 0 && (lastNow as RpcBlock | null)?.hash !== blocks[last]!.hash) {
      // The chain changed under what was seen: keep what it still has, block by block back.
      let keep = Math.min(last, latest + 1)
      while (keep > 0) {
        const [now] = await batch(url, [byNumber(keep - 1)])
        if ((now as RpcBlock | null)?.hash === blocks[keep - 1]!.hash) break
        keep--
      }
      blocks.length = keep
      onReorg?.(keep)
    }
    if (latest >= blocks.length) {
      for (const b of await fetchRange(blocks.length, latest)) {
        const parent = blocks[blocks.length - 1]
        if (parent && b.parentHash !== parent.hash)
          throw new Error(`execution node ${url}: block ${Number(b.number)} does not follow block ${blocks.length - 1}`)
        blocks.push(b)
      }
    }
    return blocks.length - 1
  }

  function catchUp(): Promise<number> {
    if (!inFlight) {
      inFlight = step().finally(() => {
        inFlight = undefined
      })
      return inFlight
    }
    next ??= inFlight
      .catch(() => undefined)
      .then(() => {
        next = undefined
        return catchUp()
      })
    return next
  }

  return {
    /**
     * Brings the blocks up to the node's latest as of this call; resolves with its number. A call
     * made while a catch-up runs waits for it and shares the one after (a catch-up begun before
     * the call may have missed a block mined since).
     */
    catchUp,
    /** The newest block seen. */
    latest: () => blocks.length - 1,
    /** Block `n` as a payload header (one already seen). */
    payloadHeader(n: number): ExecutionPayloadHeader {
      const b = blocks[n]
      if (!b) throw new Error(`execution block ${n} not seen yet (the newest seen is ${blocks.length - 1})`)
      return executionPayloadHeaderOf(b)
    },
  }
}
