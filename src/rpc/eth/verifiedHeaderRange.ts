import { checkParentLinks } from '../../chain/checkParentLinks.js'
import type { VerifiedHeader } from '../../chain/parseHeader.js'
import type { Engine } from '../../exec/createEngine.js'
import { BlockNotFoundError } from '../../errors/state.js'
import { bytesToHex } from '@ethereumjs/util'
import type { Hex } from '../../types/hex.js'

/** Header requests in flight at once: the upstream client batches them, so a wave is one round trip or a few. */
const WAVE = 1000

/**
 * The verified headers of blocks `from`…`last.number`, oldest first, every one linked to `last`
 * (already verified) by parent hashes. Parents already known by hash are taken from the header
 * cache (so a range read before costs no request); the rest are asked for by number all at once (in
 * waves of a thousand, which the upstream client sends as batches), each hashed here, and block n's
 * hash must be block n+1's parentHash — so an upstream that answers a number with another chain's
 * block is refused, naming the block.
 */
export async function verifiedHeaderRange(
  engine: Engine,
  from: bigint,
  last: VerifiedHeader,
): Promise<VerifiedHeader[]> {
  // Newest first: the headers the cache links to `last` by their hashes.
  const cached: VerifiedHeader[] = [last]
  let oldest = last
  while (oldest.number > from) {
    const parent = engine.headers.peek({
      kind: 'hash',
      hash: bytesToHex(oldest.header.parentHash) as Hex,
      requireCanonical: false,
    })
    if (!parent) break
    cached.push(parent)
    oldest = parent
  }
  const count = Number(oldest.number - from)
  const older: VerifiedHeader[] = new Array(count)
  for (let start = 0; start < count; start += WAVE) {
    const wave = Array.from({ length: Math.min(WAVE, count - start) }, async (_, i) => {
      const n = from + BigInt(start + i)
      const json = await engine.upstream.request('eth_getBlockByNumber', [`0x${n.toString(16)}`, false])
      if (json === null || json === undefined) throw new BlockNotFoundError(`0x${n.toString(16)}`)
      older[start + i] = engine.headers.offer(json)
    })
    await Promise.all(wave)
  }
  const fetched = [...older, oldest]
  checkParentLinks(fetched)
  return [...older, ...cached.reverse()]
}
