import type { VerifiedHeader } from '../../chain/parseHeader.js'
import { MessageRejectedError } from '../../errors/execution.js'
import type { OverlayStateManager } from '../../state/createOverlayStateManager.js'
import type { Hex } from '../../types/hex.js'
import type { Deadline } from '../../types/deadline.js'
import type { Engine } from '../createEngine.js'
import { executeCall } from '../executeCall.js'
import type { CallArgs } from '../types.js'
import { poolEnvironment } from './poolEnvironment.js'
import type { PoolTransaction } from './poolTransaction.js'
import { readUpstreamPool } from './readUpstreamPool.js'

/** A pool transaction as the call it makes (its sender recovered, its nonce and fees as signed). */
function callArgsOf(p: PoolTransaction): CallArgs {
  const j = p.tx.toJSON() as Record<string, unknown>
  const big = (v: unknown) => (v === undefined ? undefined : BigInt(v as string))
  const args: CallArgs = {
    from: p.sender,
    to: (j.to as Hex | undefined) ?? undefined,
    gas: p.gas,
    value: p.tx.value,
    data: j.data as Hex,
    nonce: p.nonce,
  }
  if (j.maxFeePerGas !== undefined) {
    args.maxFeePerGas = big(j.maxFeePerGas)
    args.maxPriorityFeePerGas = big(j.maxPriorityFeePerGas)
  } else args.gasPrice = big(j.gasPrice)
  if (Array.isArray(j.accessList))
    args.accessList = (j.accessList as { address: Hex; storageKeys: Hex[] }[]).map((e) => ({
      address: e.address,
      storageKeys: e.storageKeys,
    }))
  if (Array.isArray(j.authorizationList))
    args.authorizationList = (j.authorizationList as Record<string, string>[]).map((a) => ({
      chainId: BigInt(a.chainId!),
      address: a.address as Hex,
      nonce: BigInt(a.nonce!),
      yParity: BigInt(a.yParity!),
      r: BigInt(a.r!),
      s: BigInt(a.s!),
    }))
  if (Array.isArray(j.blobVersionedHashes)) {
    args.blobVersionedHashes = j.blobVersionedHashes as Hex[]
    args.maxFeePerBlobGas = big(j.maxFeePerBlobGas)
  }
  return args
}

/**
 * The pending transactions in the order a block builder takes them: each sender's in nonce order,
 * the next one always the best-paying (effective tip over the base fee) among the senders' next.
 */
export function feeOrder(pending: ReadonlyMap<Hex, PoolTransaction[]>, baseFee: bigint): PoolTransaction[] {
  const tipOf = (p: PoolTransaction) => {
    const room = p.feeCap - baseFee
    return p.tip < room ? p.tip : room
  }
  const queues = [...pending.values()].map((list) => [...list])
  const out: PoolTransaction[] = []
  for (;;) {
    let best: PoolTransaction[] | undefined
    for (const q of queues)
      if (
        q.length > 0 &&
        (!best ||
          tipOf(q[0]!) > tipOf(best[0]!) ||
          (tipOf(q[0]!) === tipOf(best[0]!) && q[0]!.addedAt < best[0]!.addedAt))
      )
        best = q
    if (!best) return out
    out.push(best.shift()!)
  }
}

/** The last pending state built, per engine: reused (forked) while the head and the pool stay the same. */
const built = new WeakMap<Engine, { key: string; state: OverlayStateManager | undefined; applied: number }>()

/**
 * The `pending` state: the head's, with the pool's pending transactions (sorted on proven state at
 * the head) applied in fee order, each as its sender signed it, up to one block's gas; one that
 * cannot run there (the head's base fee above its cap, funds spent by an earlier one, no gas left
 * in the block) is left out, as a builder would. Built once per head and pool version; each caller
 * gets its own fork of it, reading under its own deadline.
 * Undefined when nothing is pending: the head's state is the pending one.
 */
export async function pendingState(
  engine: Engine,
  head: VerifiedHeader,
  deadline?: Deadline,
): Promise<{ state: OverlayStateManager | undefined; applied: number } | undefined> {
  await readUpstreamPool(engine, head)
  const env = await poolEnvironment(engine, head, engine.txpool.senders())
  const ordered = feeOrder(engine.txpool.classify(env).pending, env.baseFee)
  if (ordered.length === 0) return undefined
  const key = `${head.hash}:${engine.txpool.version()}`
  let last = built.get(engine)
  if (last?.key !== key) {
    last = { key, ...(await applyPending(engine, head, ordered, deadline)) }
    built.set(engine, last)
  }
  return { state: last.state?.fork(deadline), applied: last.applied }
}

async function applyPending(
  engine: Engine,
  head: VerifiedHeader,
  ordered: PoolTransaction[],
  deadline: Deadline | undefined,
): Promise<{ state: OverlayStateManager | undefined; applied: number }> {
  let state: OverlayStateManager | undefined
  let applied = 0
  // One block's worth, as a builder fills the next block: a transaction whose gas limit no longer
  // fits what is left of the head's gas limit waits for a later block.
  let gasLeft = head.header.gasLimit
  // A sender whose transaction was left out has a nonce gap: its later ones wait too.
  const stopped = new Set<string>()
  for (const p of ordered) {
    if (stopped.has(p.sender)) continue
    if (p.gas > gasLeft) {
      stopped.add(p.sender)
      continue
    }
    try {
      const ran = await executeCall(engine, { args: callArgsOf(p), block: head, baseState: state, deadline })
      state = ran.state
      gasLeft -= ran.gasUsed
      applied++
    } catch (err) {
      if (!(err instanceof MessageRejectedError)) throw err
      stopped.add(p.sender)
    }
  }
  return { state, applied }
}
