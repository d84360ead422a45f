import { RLP } from '@ethereumjs/rlp'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { keccak256 } from '../../utils/keccak256.js'
import { ServerRpcError } from '../../errors/rpc.js'
import { HeaderVerificationError } from '../../errors/state.js'
import { UpstreamRpcError } from '../../errors/upstream.js'
import { defineMethod } from '../defineMethod.js'
import type { Hex } from '../../types/hex.js'

type BadBlock = { hash: string; block: unknown; rlp: unknown }

/**
 * debug_getBadBlocks(): blocks the node rejected. edgetrace imports no blocks of its own, so the list
 * is the upstream's; what can be checked is checked — each entry's RLP must hash to its `hash`
 * (whichever of `block`/`rlp` holds the RLP: Erigon swaps the two, reference §2.5). An upstream
 * without the method gets a clear error.
 */
export const getBadBlocks = defineMethod({
  name: 'debug_getBadBlocks',
  params: [],
  async run(engine): Promise<BadBlock[]> {
    let list: BadBlock[]
    try {
      list = (await engine.upstream.request<BadBlock[] | null>('debug_getBadBlocks', [])) ?? []
    } catch (err) {
      if (err instanceof UpstreamRpcError && err.code === -32601) {
        throw new ServerRpcError(
          'debug_getBadBlocks: edgetrace imports no blocks of its own, and this upstream does not offer debug_getBadBlocks',
        )
      }
      throw err
    }
    for (const entry of list) {
      const raw = [entry.rlp, entry.block].find((v): v is string => typeof v === 'string' && /^0x[0-9a-fA-F]+$/.test(v))
      if (!raw) throw new HeaderVerificationError(`bad block ${entry.hash}: the upstream gives no RLP to check it by`)
      const header = (RLP.decode(hexToBytes(raw as Hex)) as unknown as Uint8Array[][])[0]!
      const hash = bytesToHex(keccak256(RLP.encode(header)))
      if (hash !== entry.hash.toLowerCase())
        throw new HeaderVerificationError(`bad block ${entry.hash}: its RLP hashes to another hash`, {
          facts: { block: { hash: entry.hash.toLowerCase() }, expectedHash: entry.hash.toLowerCase(), gotHash: hash },
        })
    }
    return list
  },
})
