import { bytesToHex } from '@ethereumjs/util'
import { type BorSnapshot, BorSnapshotError, applyBorHeaders } from '../../chain/bor/applyBorHeaders.js'
import { borValidatorBytes } from '../../chain/bor/borSeal.js'
import { spanIdAt, spanStart } from '../../chain/bor/borSpans.js'
import { BorValidatorSetError, newValidatorSet, parseValidatorBytes } from '../../chain/bor/borValidatorSet.js'
import { type VerifiedHeader, parseHeader } from '../../chain/parseHeader.js'
import type { Engine } from '../../exec/createEngine.js'
import { ServerRpcError } from '../../errors/rpc.js'
import { HeaderVerificationError } from '../../errors/state.js'
import type { Hex } from '../../types/hex.js'
import type { CallContext } from '../../types/progress.js'
import { cacheKeys } from '../../utils/cacheKeys.js'
import { rangeWorkersFor } from '../fanOutRange.js'
import { borSignersOnWorkers } from './borSignersOnWorkers.js'

/** Default for `--bor.snapshotwalk`. */
export const DEFAULT_SNAPSHOT_WALK = 16_384
/**
 * Headers asked for at once while walking back: a few first (a snapshot is usually cached close by),
 * four times more each round after, up to 1,024 (the upstream client splits them into batches).
 */
const FIRST_WINDOW = 8
const MAX_WINDOW = 1024
/** Snapshots are kept at every block this many apart while applying headers (bor's checkpoint interval). */
const CHECKPOINT_INTERVAL = 1024n
const SNAPSHOT_BYTES = 512
/** How many headers' signers weigh as much as one block of a range, for the workers' minimum. */
const HEADERS_PER_BLOCK_OF_WORK = 8n

const cached = (engine: Engine, hash: string) => engine.cache.get<BorSnapshot>(cacheKeys.borSnapshot(hash))
const keep = (engine: Engine, snapshot: BorSnapshot) =>
  engine.cache.set(
    cacheKeys.borSnapshot(snapshot.hash),
    snapshot,
    SNAPSHOT_BYTES + 160 * snapshot.validatorSet.validators.length,
  )

/**
 * `count` headers below `child`, newest first, each fetched by number and accepted only as its
 * child's parent (its hash is the child's parentHash): a chain of verified links down from a
 * verified header. Headers already cached are not asked for.
 */
async function parentsOf(engine: Engine, child: VerifiedHeader, count: number): Promise<VerifiedHeader[]> {
  const lowest = child.number - BigInt(count)
  const numbers: bigint[] = []
  for (let n = child.number - 1n; n >= lowest && n >= 0n; n--) numbers.push(n)
  const answers = await Promise.all(
    numbers.map((n) => {
      const known = engine.headers.peek({ kind: 'number', number: n })
      return known ?? engine.upstream.request('eth_getBlockByNumber', [`0x${n.toString(16)}`, false])
    }),
  )
  const out: VerifiedHeader[] = []
  let expected = bytesToHex(child.header.parentHash)
  for (const [i, answer] of answers.entries()) {
    const n = numbers[i]!
    if (answer === null || answer === undefined)
      throw new HeaderVerificationError(`block ${n}: the upstream has no header for it below block ${child.number}`)
    const header =
      'header' in (answer as object) && 'hash' in (answer as object)
        ? (answer as VerifiedHeader)
        : parseHeader(answer as Record<string, unknown>, engine.rules)
    if (header.hash !== expected || header.number !== n)
      throw new HeaderVerificationError(
        `block ${n}: the upstream's header is not the parent of the verified block ${n + 1n}`,
        { facts: { block: { number: n, hash: expected }, expectedHash: expected, gotHash: header.hash } },
      )
    out.push(header)
    expected = bytesToHex(header.header.parentHash)
  }
  return out
}

/** The genesis's validator set, when its extraData names one between vanity and seal (a Bor devnet's). */
function genesisSnapshot(genesis: VerifiedHeader): BorSnapshot | undefined {
  const bytes = borValidatorBytes(genesis.header.extraData, false)
  if (!bytes || bytes.length === 0 || bytes.length % 40 !== 0) return undefined
  return { number: 0n, hash: genesis.hash, validatorSet: newValidatorSet(parseValidatorBytes(bytes)) }
}

/**
 * The validator snapshot after `target` (bor's snapshot(number, hash)), from verified headers only:
 * the nearest earlier snapshot this daemon computed (memory, then the persistent tier), or the
 * genesis's validator set, with every header after it applied (signers checked, sets changed on
 * sprint ends, the proposer moved on). The walk back stops after `--bor.snapshotwalk` headers:
 * the set then starts at the latest span start in reach, as the sprint-end header before it names
 * it (where a Bor node takes a span's set from Heimdall), and the log says so. Snapshots are kept
 * every 1,024 blocks on the way and at `target`, so the next walk is short. Where the daemon has
 * range workers (threads, a pool's Web Workers, the fleet's queue) and the headers to apply are
 * enough for them, their signers — the costly part, a public-key recovery each — are recovered there
 * in stretches (borSignersOnWorkers), while the headers, their links and the fold stay here: the
 * same snapshot, or the same error, as a walk here alone. `context` ends those stretches with the request.
 */
export async function borSnapshotAt(
  engine: Engine,
  target: VerifiedHeader,
  context?: CallContext,
): Promise<BorSnapshot> {
  const rules = engine.rules.bor!
  const key = cacheKeys.borSnapshot(target.hash)
  if (!engine.cache.has(key)) await engine.cache.restore?.([key])
  const hit = cached(engine, target.hash)
  if (hit) return hit
  const bound = engine.options.borSnapshotWalk ?? DEFAULT_SNAPSHOT_WALK
  // Newest first: the headers to apply, down to (not including) the start.
  const walked: VerifiedHeader[] = [target]
  let start: BorSnapshot | undefined
  let size = FIRST_WINDOW
  while (!start) {
    const lowest = walked.at(-1)!
    if (lowest.number === 0n) {
      walked.pop()
      start = genesisSnapshot(lowest)
      break
    }
    if (walked.length > bound) break
    const window = await parentsOf(engine, lowest, Math.min(size, bound + 1 - walked.length))
    size = Math.min(MAX_WINDOW, size * 4)
    await engine.cache.restore?.(window.map((h) => cacheKeys.borSnapshot(h.hash)))
    for (const header of window) {
      const found = cached(engine, header.hash)
      if (found) {
        start = found
        break
      }
      walked.push(header)
    }
  }
  if (!start) start = spanStartSnapshot(engine, target, walked, bound)
  // Oldest first, from the block after the start.
  const from0 = start.number
  const headers = walked.filter((h) => h.number > from0).reverse()
  // Signers recovered on the workers, by block hash; a part is applied once its stretches are in.
  const signers = new Map<Hex, Hex>()
  // A header's signer is a small part of what a block's replay costs, and each stretch pays a round
  // trip before it starts: a walk goes to the workers from eight times a range's minimum (512
  // headers by default; a 200-header walk was 25-40 % slower on two threads, an 884-header one 17 %
  // quicker: bench/borSnapshot.ts).
  const workers =
    headers.length > 0 ? rangeWorkersFor(engine, BigInt(headers.length) / HEADERS_PER_BLOCK_OF_WORK) : undefined
  const stretches = workers ? borSignersOnWorkers(engine, workers, headers, signers, context) : undefined
  let recovered = from0
  let snapshot = start
  let from = 0
  try {
    for (let i = 0; i < headers.length; i++) {
      const number = headers[i]!.number
      if (number % CHECKPOINT_INTERVAL === 0n || i === headers.length - 1) {
        while (stretches && recovered < number) {
          const next = await stretches.next()
          if (next.done) break
          recovered = next.value
        }
        snapshot = applySnapshot(snapshot, headers.slice(from, i + 1), rules, signers)
        keep(engine, snapshot)
        from = i + 1
      }
    }
  } finally {
    // A walk that ended early (an error in bor's words) stops the stretches still in flight.
    await stretches?.return(undefined)
  }
  if (headers.length === 0) keep(engine, snapshot)
  return snapshot
}

function applySnapshot(
  snapshot: BorSnapshot,
  headers: readonly VerifiedHeader[],
  rules: NonNullable<Engine['rules']['bor']>,
  signers: ReadonlyMap<Hex, Hex>,
): BorSnapshot {
  try {
    return applyBorHeaders(snapshot, headers, rules, signers)
  } catch (err) {
    if (err instanceof BorSnapshotError || err instanceof BorValidatorSetError)
      throw new ServerRpcError(err.shortMessage, { cause: err })
    throw err
  }
}

/**
 * No known set within the bound: the set of the latest span that starts within the walked headers,
 * as its sprint-end header (the block before the span) names it, with fresh proposer priorities.
 */
function spanStartSnapshot(
  engine: Engine,
  target: VerifiedHeader,
  walked: readonly VerifiedHeader[],
  bound: number,
): BorSnapshot {
  const rules = engine.rules.bor!
  const oldest = walked.at(-1)!.number
  for (let id = spanIdAt(target.number); id > 0n; id--) {
    const naming = spanStart(id) - 1n
    if (naming < oldest) break
    const header = walked.find((h) => h.number === naming)!
    const bytes = borValidatorBytes(header.header.extraData, rules.isNapoli(naming))
    if (!bytes || bytes.length === 0 || bytes.length % 40 !== 0) continue
    engine.log?.(
      `sidechain: no validator snapshot within ${bound} headers of block ${target.number} (none cached, the genesis further back): ` +
        `started from span ${id}'s set as block ${naming} names it, with fresh proposer priorities (--bor.snapshotwalk walks further)`,
    )
    return { number: naming, hash: header.hash, validatorSet: newValidatorSet(parseValidatorBytes(bytes)) }
  }
  throw new ServerRpcError(
    `no validator set known within ${bound} headers of block ${target.number}: no snapshot cached, the genesis names none or lies further back, and no span starts in reach; raise --bor.snapshotwalk`,
  )
}
