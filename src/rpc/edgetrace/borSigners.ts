import { borHeaderSigner } from '../../chain/bor/borHeaderSigner.js'
import { BorExtraDataError } from '../../chain/bor/borSeal.js'
import type { BorRules } from '../../chain/bor/createBorRules.js'
import { checkParentLinks } from '../../chain/checkParentLinks.js'
import type { VerifiedHeader } from '../../chain/parseHeader.js'
import { InvalidParamsRpcError, ServerRpcError } from '../../errors/rpc.js'
import { BlockNotFoundError } from '../../errors/state.js'
import type { Engine } from '../../exec/createEngine.js'
import type { Hex } from '../../types/hex.js'
import { quantity } from '../../utils/hex.js'
import { defineMethod } from '../defineMethod.js'
import { JsonStream } from '../jsonStream.js'
import { required } from '../params.js'
import { parseHash, parseQuantity } from '../parsers.js'
import type { BorSignerBlock } from '../sidechain/mergeWorkerSigners.js'

/** Most blocks one stretch may ask for (the owner's stretches are 8 to 250). */
export const BOR_SIGNERS_MAX_BLOCKS = 1024

/** The signer as a snapshot walk recovers it, or null where the seal does not recover (the owner meets that error itself). */
function signerOrNull(header: VerifiedHeader, rules: BorRules): Hex | null {
  try {
    return borHeaderSigner(header, rules)
  } catch (err) {
    if (err instanceof BorExtraDataError) return null
    throw err
  }
}

/**
 * The verified headers of `first`…`last`, oldest first, in one round trip: block `last` by its hash,
 * the others asked by number beside it (the upstream client batches them), each hashed and linked
 * to the one above it by its parentHash — the chain that ends at `lastHash`, or an error naming the
 * block that does not link.
 */
async function stretchHeaders(engine: Engine, first: bigint, last: bigint, lastHash: Hex): Promise<VerifiedHeader[]> {
  const below = Array.from({ length: Number(last - first) }, async (_, i) => {
    const json = await engine.upstream.request('eth_getBlockByNumber', [quantity(first + BigInt(i)), false])
    if (json === null || json === undefined) throw new BlockNotFoundError(quantity(first + BigInt(i)))
    return engine.headers.offer(json)
  })
  const top = engine.headers.resolve({ kind: 'hash', hash: lastHash, requireCanonical: false })
  const headers = await Promise.all([...below, top])
  if (headers.at(-1)!.number !== last)
    throw new InvalidParamsRpcError(`block ${lastHash} is number ${headers.at(-1)!.number}, not ${last}`)
  checkParentLinks(headers)
  return headers
}

/**
 * edgetrace_borSigners(first, last, lastHash): a stretch of a Bor validator snapshot walk, run by a
 * range worker (a thread, a pool's Web Worker, a `--queue.work` process) for the daemon that owns the
 * walk (see borSignersOnWorkers) — for each block of `first`…`last` (ascending, at most 1,024), the
 * verified header's number and hash and its signer, recovered as the walk recovers it
 * (borHeaderSigner; null where the seal does not recover). The headers are the chain that ends at
 * the block of hash `lastHash` (which must be block `last`), linked down by parent hashes as the
 * owner's walk links them. Streamed, in block order. Served
 * only on a range worker's daemon (`forRangeWorkers`): no client has it.
 */
export const borSigners = defineMethod({
  name: 'edgetrace_borSigners',
  params: [required(parseQuantity), required(parseQuantity), required(parseHash)],
  forRangeWorkers: true,
  async run(engine, [first, last, lastHash]): Promise<JsonStream> {
    const rules = engine.rules.bor
    if (!rules) throw new ServerRpcError('edgetrace_borSigners: not a Bor chain')
    if (last < first) throw new InvalidParamsRpcError(`a stretch from block ${first} down to ${last}; it goes up`)
    const blocks = last - first + 1n
    if (blocks > BigInt(BOR_SIGNERS_MAX_BLOCKS))
      throw new InvalidParamsRpcError(`a stretch of ${blocks} blocks; at most ${BOR_SIGNERS_MAX_BLOCKS} at once`)
    const headers = await stretchHeaders(engine, first, last, lastHash)
    return new JsonStream(async (write, hold) => {
      // Held until the first block: a stretch whose first block fails answers a plain error.
      hold('[')
      try {
        for (const [i, header] of headers.entries()) {
          const block: BorSignerBlock = {
            number: quantity(header.number),
            hash: header.hash,
            signer: signerOrNull(header, rules),
          }
          await write(`${i === 0 ? '' : ','}${JSON.stringify(block)}`)
        }
      } finally {
        hold(']')
      }
    })
  },
})
