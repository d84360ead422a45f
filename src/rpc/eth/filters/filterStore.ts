import type { Engine } from '../../../exec/createEngine.js'
import { ServerRpcError } from '../../../errors/rpc.js'
import type { RpcSession } from '../../../types/rpcSession.js'
import type { LogFilter } from '../parseLogFilter.js'
import { type Subscription, subscriptionHubOf } from '../subscriptions/subscriptionHub.js'

/** geth's filters.Config Timeout default: a filter not polled for this long is removed. */
export const FILTER_TIMEOUT_MS = 5 * 60_000
/** Filters installed at once (all clients together); geth sets none, a bound keeps memory bounded. */
export const MAX_FILTERS = 1_000
/** Changes one filter keeps unread between polls; past it they are dropped and the next poll says so. */
export const MAX_FILTER_ITEMS = 10_000

export type FilterKind = 'logs' | 'blocks' | 'pendingTransactions'

/** Block numbers a log filter's changes keep to (geth's filterLogs: a bound that is a number). */
export type LogRange = { from: bigint | undefined; to: bigint | undefined }

export type InstalledFilter = {
  readonly id: string
  readonly kind: FilterKind
  /** The connection that installed it; undefined over HTTP (no identity: any client may poll it, as geth). */
  readonly owner: RpcSession | undefined
  /** A log filter's criteria, as eth_getFilterLogs reads them again. */
  readonly criteria: LogFilter | undefined
}

export type FilterStore = {
  /** Installs a filter fed by the subscription hub (verified heads, logs, pool transactions); returns its id. */
  install(
    owner: RpcSession | undefined,
    subscription: Subscription,
    kind: FilterKind,
    criteria?: LogFilter,
    range?: LogRange,
  ): Promise<string>
  /** The filter `id` as `caller` may see it, its deadline untouched; "filter not found" otherwise. */
  get(caller: RpcSession | undefined, id: string): InstalledFilter
  /** What arrived since the last poll (and the deadline moved on); "filter not found" otherwise. */
  changes(caller: RpcSession | undefined, id: string): unknown[]
  /** Removes the filter; false when `caller` has none by that id. */
  uninstall(caller: RpcSession | undefined, id: string): boolean
  /** Filters installed (for tests and counters). */
  size(): number
}

type Entry = InstalledFilter & {
  items: unknown[]
  /** More changes arrived than MAX_FILTER_ITEMS since the last poll. */
  overflowed: boolean
  polledAt: number
  /** The pseudo-connection the hub pushes this filter's changes to. */
  feed: RpcSession & { close(): void }
}

const stores = new WeakMap<Engine, FilterStore>()

/** The engine's filters (one store for all transports). */
export function filterStoreOf(engine: Engine): FilterStore {
  let store = stores.get(engine)
  if (!store) {
    store = createFilterStore(engine, engine.options.filterTimeoutMs ?? FILTER_TIMEOUT_MS)
    stores.set(engine, store)
  }
  return store
}

const notFound = () => new ServerRpcError('filter not found')

/**
 * Filters polled with eth_getFilterChanges, fed as subscriptions are (subscriptionHub): new heads
 * hashed and linked, logs from receipts checked against `receiptsRoot` (a reorg's logs again with
 * `removed: true`), pool transactions re-hashed — each filter a subscription whose "connection" is
 * its buffer. Removed when not polled for `timeoutMs` (geth's 5 minutes), when uninstalled, or with
 * the connection that installed it.
 */
function createFilterStore(engine: Engine, timeoutMs: number): FilterStore {
  const entries = new Map<string, Entry>()
  let sweeper: ReturnType<typeof setInterval> | undefined

  const remove = (entry: Entry) => {
    if (entries.get(entry.id) !== entry) return
    entries.delete(entry.id)
    entry.feed.close()
    if (entries.size === 0 && sweeper) {
      clearInterval(sweeper)
      sweeper = undefined
    }
  }

  const sweep = () => {
    const now = Date.now()
    for (const entry of [...entries.values()]) if (now - entry.polledAt >= timeoutMs) remove(entry)
  }

  const visible = (caller: RpcSession | undefined, id: unknown): Entry => {
    const entry = typeof id === 'string' ? entries.get(id.toLowerCase()) : undefined
    if (!entry || (entry.owner !== undefined && entry.owner !== caller)) throw notFound()
    // A filter past its deadline is gone even if the sweep has not run yet.
    if (Date.now() - entry.polledAt >= timeoutMs) {
      remove(entry)
      throw notFound()
    }
    return entry
  }

  return {
    async install(owner, subscription, kind, criteria, range) {
      sweep()
      if (entries.size >= MAX_FILTERS)
        throw new ServerRpcError(
          `too many filters installed (at most ${MAX_FILTERS}): uninstall some with eth_uninstallFilter or let them expire`,
        )
      let entry: Entry | undefined
      let closed = false
      const listeners: (() => void)[] = []
      const feed: Entry['feed'] = {
        push(text) {
          if (!entry) return
          const result = (JSON.parse(text) as { params: { result: unknown } }).params.result
          if (kind === 'blocks') return accept(entry, (result as { hash: string }).hash)
          if (kind === 'logs' && range && !inRange(result, range)) return
          accept(entry, result)
        },
        onClose(listener) {
          if (closed) listener()
          else listeners.push(listener)
        },
        get closed() {
          return closed
        },
        close() {
          if (closed) return
          closed = true
          for (const listener of listeners.splice(0)) listener()
        },
      }
      const id = await subscriptionHubOf(engine).subscribe(feed, subscription)
      entry = { id, kind, owner, criteria, items: [], overflowed: false, polledAt: Date.now(), feed }
      entries.set(id, entry)
      owner?.onClose(() => {
        if (entry) remove(entry)
      })
      if (!sweeper) {
        sweeper = setInterval(sweep, Math.max(10, Math.min(timeoutMs, 60_000) / 4))
        sweeper.unref?.()
      }
      return id
    },
    get: (caller, id) => visible(caller, id),
    changes(caller, id) {
      const entry = visible(caller, id)
      entry.polledAt = Date.now()
      const { items, overflowed } = entry
      entry.items = []
      entry.overflowed = false
      if (overflowed)
        throw new ServerRpcError(
          `filter ${entry.id}: more than ${MAX_FILTER_ITEMS} changes arrived since it was last polled and were dropped (poll more often; eth_getLogs reads a range again)`,
        )
      return items
    },
    uninstall(caller, id) {
      try {
        remove(visible(caller, id))
        return true
      } catch {
        return false
      }
    },
    size: () => entries.size,
  }
}

function accept(entry: Entry, item: unknown) {
  if (entry.overflowed) return
  if (entry.items.length >= MAX_FILTER_ITEMS) {
    entry.overflowed = true
    entry.items = []
    return
  }
  entry.items.push(item)
}

function inRange(log: unknown, range: LogRange): boolean {
  const raw = (log as { blockNumber?: unknown }).blockNumber
  if (typeof raw !== 'string') return true
  const number = BigInt(raw)
  return (range.from === undefined || number >= range.from) && (range.to === undefined || number <= range.to)
}
