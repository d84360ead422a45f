import { randomBytes } from '@noble/hashes/utils.js'
import { bytesToHex } from '@ethereumjs/util'
import type { VerifiedHeader } from '../../../chain/parseHeader.js'
import type { Engine } from '../../../exec/createEngine.js'
import { ensurePendingFeed } from '../../../exec/txpool/followPendingFeed.js'
import type { PoolTransaction } from '../../../exec/txpool/poolTransaction.js'
import { readUpstreamPool } from '../../../exec/txpool/readUpstreamPool.js'
import type { RpcSession } from '../../../types/rpcSession.js'
import { formatPoolTransaction } from '../../txpool/classifiedPool.js'
import { formatHeader } from '../formatBlock.js'
import type { LogFilter } from '../parseLogFilter.js'
import { type BlockLog, blockLogs } from '../blockLogs.js'
import { logMatches } from '../matchLogFilter.js'

export type Subscription =
  | { kind: 'newHeads' }
  | { kind: 'logs'; filter: LogFilter }
  | { kind: 'newPendingTransactions'; full: boolean }
  | { kind: 'syncing' }

type Entry = Subscription & { id: string; session: RpcSession }

export type SubscriptionHub = {
  /** Registers a subscription of `session`; returns its id (geth's: 0x and 32 hex digits). */
  subscribe(session: RpcSession, subscription: Subscription): Promise<string>
  /** Ends one of `session`'s subscriptions; false when it has none by that id. */
  unsubscribe(session: RpcSession, id: string): boolean
  /** How many subscriptions are live (for tests and counters). */
  size(): number
}

/** Blocks one step may push; a head further ahead than this is pushed alone. */
const MAX_STEP = 256
/** Blocks of a reorg followed back before giving up on linking (the new head is pushed alone). */
const MAX_REORG = 64
/** Blocks whose logs are remembered (a reorg pushes them again, `removed: true`). */
const RECENT = 128

const hubs = new WeakMap<Engine, SubscriptionHub>()

/** The engine's one hub: what is followed upstream is shared by every connection. */
export function subscriptionHubOf(engine: Engine): SubscriptionHub {
  let hub = hubs.get(engine)
  if (!hub) {
    hub = createSubscriptionHub(engine, engine.options.subscriptionPollMs ?? 1000)
    hubs.set(engine, hub)
  }
  return hub
}

const notification = (subscription: string, result: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription, result } })

/**
 * Subscriptions fed from verified data: the head is followed (polled every `pollMs`, and at once
 * when a WebSocket upstream announces a new head — its announcement is a cue, never data), each new
 * header hashed and linked to the one pushed before it (a reorg followed back to the common
 * ancestor: the new branch pushed, the old branch's logs pushed again with `removed: true`); logs
 * from receipts checked against `receiptsRoot`; pending transactions as the pool takes them in
 * (each re-hashed and its sender recovered). Nothing runs while nobody is subscribed.
 */
function createSubscriptionHub(engine: Engine, pollMs: number): SubscriptionHub {
  const entries = new Map<string, Entry>()
  let last: VerifiedHeader | undefined
  /** hash → the block's header and (once read) its logs, for the last RECENT blocks pushed. */
  const recent = new Map<string, { header: VerifiedHeader; logs?: BlockLog[] }>()
  let timer: ReturnType<typeof setInterval> | undefined
  let stopUpstream: (() => void) | undefined
  let stopPool: (() => void) | undefined
  let stepping: Promise<void> | undefined
  let again = false
  let syncing: string | undefined

  const of = (kind: Subscription['kind']) => [...entries.values()].filter((e) => e.kind === kind)
  const push = (entry: Entry, result: unknown) => {
    if (!entry.session.closed) entry.session.push(notification(entry.id, result))
  }
  const remember = (header: VerifiedHeader, logs?: BlockLog[]) => {
    recent.delete(header.hash)
    recent.set(header.hash, logs ? { header, logs } : { header })
    while (recent.size > RECENT) recent.delete(recent.keys().next().value!)
  }

  function start() {
    if (!timer) {
      timer = setInterval(() => void step(), pollMs)
      timer.unref?.()
      engine.upstream
        .subscribe?.(['newHeads'], () => void step())
        .then((stop) => {
          if (timer) stopUpstream = stop
          else stop()
        })
        .catch(() => undefined)
      void step()
    }
    if (!stopPool && of('newPendingTransactions').length > 0) {
      stopPool = engine.txpool.onAdd(onPoolAdd)
      ensurePendingFeed(engine)
    }
  }

  function stopIfIdle() {
    if (stopPool && of('newPendingTransactions').length === 0) {
      stopPool()
      stopPool = undefined
    }
    if (entries.size > 0) return
    clearInterval(timer)
    timer = undefined
    stopUpstream?.()
    stopUpstream = undefined
    last = undefined
    recent.clear()
    syncing = undefined
  }

  function onPoolAdd(tx: PoolTransaction) {
    for (const entry of of('newPendingTransactions'))
      push(entry, entry.kind === 'newPendingTransactions' && entry.full ? formatPoolTransaction(tx) : tx.hash)
  }

  /** One step at a time; a cue during a step runs one more after it. */
  function step(): Promise<void> {
    if (stepping) {
      again = true
      return stepping
    }
    stepping = advance()
      .catch(() => {
        // The head could not be read or did not verify: nothing is pushed; the next step tries again.
      })
      .finally(() => {
        stepping = undefined
        if (again && entries.size > 0) {
          again = false
          void step()
        }
      })
    return stepping
  }

  async function advance() {
    if (entries.size === 0) return
    const head = await engine.headers.resolve({ kind: 'tag', tag: 'latest' })
    if (of('syncing').length > 0) await pushSyncing()
    if (of('newPendingTransactions').length > 0) await readUpstreamPool(engine, head)
    if (!last) {
      // Subscribed just now: what comes after this head is new.
      last = head
      remember(head)
      return
    }
    if (head.hash === last.hash) return
    const { added, removed } = await linkTo(head, last)
    // Everything read and verified first (the new blocks' logs), then pushed: a read that fails
    // pushes nothing, and the next step starts again from the same block — no notification twice.
    const logSubs = of('logs').map((e) => (e as { filter: LogFilter }).filter)
    const addedLogs = await Promise.all(
      added.map((header) => (logSubs.length > 0 ? blockLogs(engine, header, logSubs) : Promise.resolve(undefined))),
    )
    for (const old of removed) {
      const logs = recent.get(old.hash)?.logs ?? []
      for (const entry of of('logs'))
        if (entry.kind === 'logs')
          for (const log of logs) if (logMatches(log, entry.filter)) push(entry, { ...log, removed: true })
      recent.delete(old.hash)
    }
    added.forEach((header, i) => {
      const logs = addedLogs[i]
      for (const entry of of('newHeads')) push(entry, formatHeader(header.header))
      if (logs)
        for (const entry of of('logs'))
          if (entry.kind === 'logs') for (const log of logs) if (logMatches(log, entry.filter)) push(entry, log)
      remember(header, logs)
      last = header
    })
  }

  /**
   * The blocks from `from` (exclusive) to `head`, oldest first, each linked to its parent by hash;
   * on a reorg, the blocks of the old branch given up (newest first) down to the common ancestor.
   * A head more than MAX_STEP blocks on, or a reorg deeper than MAX_REORG, is pushed alone.
   */
  async function linkTo(head: VerifiedHeader, from: VerifiedHeader) {
    if (head.number - from.number > BigInt(MAX_STEP)) return { added: [head], removed: [] }
    // The stretch between, asked for by number at once (one batch), then checked link by link from
    // the head down; where a link does not hold (a reorg under way), the parent is asked for by hash.
    const numbers: bigint[] = []
    for (let n = from.number + 1n; n < head.number; n++) numbers.push(n)
    const byNumber = new Map<bigint, VerifiedHeader>()
    const fetched = await Promise.allSettled(
      numbers.map((number) => engine.headers.resolve({ kind: 'number', number })),
    )
    for (const outcome of fetched) if (outcome.status === 'fulfilled') byNumber.set(outcome.value.number, outcome.value)
    const parentOf = async (header: VerifiedHeader) => {
      const parent = bytesToHex(header.header.parentHash)
      const known = byNumber.get(header.number - 1n)
      return known?.hash === parent ? known : engine.headers.byHash(parent)
    }
    const added: VerifiedHeader[] = []
    const removed: VerifiedHeader[] = []
    let current = head
    while (current.number > from.number) {
      added.unshift(current)
      if (current.number === 0n) break
      current = await parentOf(current)
    }
    // current is at from's height (or below it): walk both back until they meet.
    let old: VerifiedHeader | undefined = from
    while (old && old.number > current.number) {
      removed.push(old)
      old = recent.get(bytesToHex(old.header.parentHash))?.header
    }
    while (old && old.hash !== current.hash) {
      if (removed.length > MAX_REORG || current.number === 0n) return { added: [head], removed: [] }
      removed.push(old)
      added.unshift(current)
      old = recent.get(bytesToHex(old.header.parentHash))?.header
      current = await parentOf(current)
    }
    if (!old) return { added: [head], removed: [] } // the old branch is older than what is remembered
    return { added, removed }
  }

  async function pushSyncing() {
    const status = await engine.upstream.request<unknown>('eth_syncing', [])
    const result = status === false ? false : { syncing: true, status }
    const text = JSON.stringify(result)
    const before = syncing
    syncing = text
    // As geth's: changes are pushed, not the state found at subscription.
    if (before === undefined || text === before) return
    for (const entry of of('syncing')) push(entry, result)
  }

  return {
    async subscribe(session, subscription) {
      const id = bytesToHex(randomBytes(16))
      entries.set(id, { ...subscription, id, session })
      session.onClose(() => {
        entries.delete(id)
        stopIfIdle()
      })
      start()
      // The head as it is now is read before the id is returned: every block after it is pushed.
      if (!last) await step()
      return id
    },
    unsubscribe(session, id) {
      const entry = entries.get(id)
      if (!entry || entry.session !== session) return false
      entries.delete(id)
      stopIfIdle()
      return true
    },
    size: () => entries.size,
  }
}
