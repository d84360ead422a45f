import { ExecutionTimeoutError, TracerTimeoutError } from '../../errors/execution.js'
import type { Engine } from '../../exec/createEngine.js'
import type { TraceRun } from '../../exec/runTrace.js'
import type { Hex } from '../../types/hex.js'
import type { TracePlan } from '../../tracing/tracePlan.js'

/** Rounds a JavaScript tracer's trace may take to load what its db reads (a db that reads anew every round gives up). */
const MAX_ROUNDS = 4

/**
 * Runs a trace; for a JavaScript tracer whose `db` read state the execution had not loaded (it
 * must answer synchronously, geth's StateDB does), fetches that state — verified, at the block the
 * execution starts from — and runs the trace again, until a run needs nothing more.
 */
export async function runWithJsState(engine: Engine, plan: TracePlan, run: () => Promise<TraceRun>): Promise<TraceRun> {
  for (let round = 1; ; round++) {
    if (plan.kind === 'js') {
      plan.misses.length = 0
      plan.missedAt = undefined
    }
    // A tracer may have failed on what its db could not answer (it was handed empty state): a run
    // that missed state is run again once that is loaded, whatever it ended with — but not past time.
    const outcome = await run().then(
      (ran) => ({ ran }),
      (err: unknown) => ({ err }),
    )
    const timedOut =
      'err' in outcome && (outcome.err instanceof ExecutionTimeoutError || outcome.err instanceof TracerTimeoutError)
    if (plan.kind !== 'js' || plan.misses.length === 0 || round === MAX_ROUNDS || timedOut) {
      if ('err' in outcome) throw outcome.err
      return outcome.ran
    }
    // Set with the misses, by the session that had them (the base state of its execution).
    const base = plan.missedAt
    if (!base) throw new Error('a JavaScript tracer missed state outside any execution')
    const slots = new Map<Hex, Set<Hex>>()
    for (const miss of plan.misses) {
      const set = slots.get(miss.address) ?? new Set<Hex>()
      if (miss.slot) set.add(miss.slot)
      slots.set(miss.address, set)
    }
    // One round trip for all of it, then each value read from the cache for the next run's db.
    const source = engine.source
    await source.prefetch(
      base,
      [...slots].map(([address, keys]) => ({ address, storageKeys: [...keys] })),
    )
    const loaded = (plan.loaded ??= { accounts: new Map(), code: new Map(), storage: new Map() })
    await Promise.all(
      [...slots].map(async ([address, keys]) => {
        const account = await source.getAccount(base, address)
        loaded.accounts.set(address, account ? { balance: account.balance, nonce: account.nonce } : null)
        loaded.code.set(address, await source.getCode(base, address))
        for (const slot of keys) loaded.storage.set(`${address}:${slot}`, await source.getStorage(base, address, slot))
      }),
    )
  }
}
