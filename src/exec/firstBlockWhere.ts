import type { VerifiedHeader } from '../chain/parseHeader.js'
import type { Engine } from './createEngine.js'

/**
 * Blocks probed at once per round: their headers go in one batch, then their proofs in another, so a
 * round is two round trips and n blocks take log_(PROBES+1)(n) rounds — fewer round trips than a
 * binary search's log2(n) steps of two, for a few more proofs.
 */
const PROBES = 7n

/**
 * The first block in 1…head whose verified state (at its end) satisfies `holds`, found by a search of
 * PROBES+1-ary rounds over verified headers and state. `holds` must be monotone (false, then true for
 * good: a nonce that grew, code that appeared). Block 0 is never asked: a devnet's genesis header need
 * not commit to its pre-funded state (anvil's does not), and no transaction ran in it. undefined when
 * it does not hold at the head.
 */
export async function firstBlockWhere(
  engine: Engine,
  holds: (header: VerifiedHeader) => Promise<boolean>,
): Promise<VerifiedHeader | undefined> {
  const head = await engine.headers.resolve({ kind: 'tag', tag: 'latest' })
  if (head.number < 1n) return undefined
  let lo = 1n
  let hi = head.number
  // The header of `hi` once it is known to hold: the answer is in lo…hi.
  let found: VerifiedHeader | undefined
  for (;;) {
    if (found && lo === hi) return found
    const top = found ? hi - 1n : hi
    const n = top - lo + 1n
    const k = n < PROBES ? n : PROBES
    const points = Array.from({ length: Number(k) }, (_, i) => lo + (n * BigInt(i + 1)) / k - 1n)
    const probed = await Promise.all(
      points.map(async (number) => {
        const header = number === head.number ? head : await engine.headers.resolve({ kind: 'number', number })
        return { header, holds: await holds(header) }
      }),
    )
    const first = probed.findIndex((p) => p.holds)
    if (first === -1) {
      if (!found) return undefined
      lo = top + 1n
      continue
    }
    hi = points[first]!
    found = probed[first]!.header
    if (first > 0) lo = points[first - 1]! + 1n
  }
}
