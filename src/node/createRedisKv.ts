import { Redis } from 'ioredis'
import type { SharedKv } from '../state/createSharedTier.js'
import { redactUrl } from '../utils/redactUrl.js'

/** Deletes KEYS[1] only while its value is still ARGV[1]. */
const DELETE_UNCHANGED = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"

export type RedisKvOptions = {
  /** `redis://` or `rediss://` (TLS), with a user, password and database number when the server wants them; Valkey too. */
  url: string
  /** Every command's bound, ms (default 250): a slow store costs a request at most this, then the upstream answers. */
  commandTimeoutMs?: number
  /** Consecutive failures that open the breaker (default 3): while open, the store is not asked. */
  failuresToOpen?: number
  /** How long the breaker stays open, ms (default 5,000); then one call tries the store again. */
  openMs?: number
  /** Where the store's going away and coming back are told (once each). */
  log?: (line: string) => void
  /** Prefix of every key (default `edgetrace:v1:`), so that other data in the same database is never touched. */
  prefix?: string
}

export type RedisKv = SharedKv & {
  /** Whether the breaker is closed (the store answered last time, or has not been tried). */
  readonly healthy: () => boolean
  close(): Promise<void>
}

/**
 * The shared tier's store on Redis or Valkey (ioredis). It never holds a request up for long and
 * never fails one: each command is bounded (commandTimeoutMs), nothing is queued while the
 * connection is down (it fails at once, and ioredis reconnects in the background), and after
 * `failuresToOpen` failures in a row a breaker stops asking for `openMs`. Every failure throws to
 * the caller (the shared tier), which then reads from the upstream.
 */
export function createRedisKv({
  url,
  commandTimeoutMs = 250,
  failuresToOpen = 3,
  openMs = 5_000,
  log = () => {},
  prefix = 'edgetrace:v1:',
}: RedisKvOptions): RedisKv {
  const where = redactUrl(url)
  const redis = new Redis(url, {
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    connectTimeout: Math.max(1_000, commandTimeoutMs * 4),
    // Reconnects forever, at most every 2 s: a store that comes back is used again.
    retryStrategy: (times) => Math.min(100 * times, 2_000),
    keyPrefix: prefix,
  })
  // Connection errors are the breaker's business (and the log's, once): never an unhandled 'error'.
  redis.on('error', () => {})
  let failures = 0
  let openUntil = 0
  let down = false

  async function guarded<T>(run: () => Promise<T>): Promise<T> {
    if (Date.now() < openUntil) throw new Error(`the shared cache at ${where} is skipped for a while (breaker open)`)
    try {
      const result = await run()
      failures = 0
      if (down) {
        down = false
        log(`shared cache: ${where} answers again; used again`)
      }
      return result
    } catch (err) {
      failures++
      if (failures >= failuresToOpen) {
        openUntil = Date.now() + openMs
        failures = 0
      }
      if (!down) {
        down = true
        log(
          `shared cache: ${where} failed (${(err as Error).message}); serving from the upstream until it answers again`,
        )
      }
      throw err
    }
  }

  return {
    getMany: (keys) =>
      keys.length === 0
        ? Promise.resolve([])
        : guarded(async () => (await redis.mget(...keys)).map((v) => v ?? undefined)),
    setMany: (entries) =>
      entries.length === 0 ? Promise.resolve() : guarded(async () => void (await redis.mset(entries.flat()))),
    deleteUnchanged: (entries) =>
      entries.length === 0
        ? Promise.resolve()
        : guarded(async () => {
            const batch = redis.pipeline()
            for (const [key, value] of entries) batch.eval(DELETE_UNCHANGED, 1, key, value)
            for (const [err] of (await batch.exec()) ?? []) if (err) throw err
          }),
    clear: () =>
      guarded(async () => {
        // SCAN sees keys with the prefix spelled out; DEL gets them without it (keyPrefix adds it again).
        let cursor = '0'
        do {
          const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500)
          cursor = next
          if (found.length > 0) await redis.del(...found.map((k) => k.slice(prefix.length)))
        } while (cursor !== '0')
      }),
    healthy: () => !down,
    async close() {
      redis.disconnect()
    },
  }
}
