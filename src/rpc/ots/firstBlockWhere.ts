import type { VerifiedHeader } from '../../chain/parseHeader.js'
import type { Engine } from '../../exec/createEngine.js'

/**
 * The first block in 1…head whose verified state (at its end) satisfies `holds`, found by binary
 * search: O(log n) steps of one header and one proof each. `holds` must be monotone (false, then true
 * for good: a nonce that grew, code that appeared). Block 0 is never asked: a devnet's genesis header
 * need not commit to its pre-funded state (anvil's does not), and nothing happened in it that a later
 * block could not show. undefined when it does not hold at the head.
 */
export async function firstBlockWhere(
  engine: Engine,
  holds: (header: VerifiedHeader) => Promise<boolean>,
): Promise<VerifiedHeader | undefined> {
  const head = await engine.headers.resolve({ kind: 'tag', tag: 'latest' })
  if (head.number < 1n || !(await holds(head))) return undefined
  let lo = 1n
  let hi = head.number
  let found = head
  while (lo < hi) {
    const mid = (lo + hi) / 2n
    const header = await engine.headers.resolve({ kind: 'number', number: mid })
    if (await holds(header)) {
      hi = mid
      found = header
    } else lo = mid + 1n
  }
  return found.number === lo ? found : engine.headers.resolve({ kind: 'number', number: lo })
}
