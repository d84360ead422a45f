import { createTxFromRPC } from '@ethereumjs/tx'
import { bytesToHex } from '@ethereumjs/util'
import { keccak256 } from '../../utils/keccak256.js'
import { HeaderVerificationError } from '../../errors/state.js'
import { parseHash } from '../parsers.js'
import { required } from '../params.js'
import { defineMethod } from '../defineMethod.js'
import type { Hex } from '../../types/hex.js'

/**
 * debug_getRawTransaction(hash): the transaction's canonical encoding, from the upstream's
 * transaction re-encoded here; its keccak256 must be the hash asked for. Unknown: "0x".
 */
export const getRawTransaction = defineMethod({
  name: 'debug_getRawTransaction',
  params: [required(parseHash)],
  async run(engine, [hash]): Promise<string> {
    const json = await engine.upstream.request<Record<string, unknown> | null>('eth_getTransactionByHash', [hash])
    if (!json) return '0x'
    // The fork rules of the transaction's block (of the head for a pending one) decide which types decode.
    const blockHash = json.blockHash as Hex | null | undefined
    const at = await engine.headers.resolve(
      blockHash ? { kind: 'hash', hash: blockHash, requireCanonical: false } : { kind: 'tag', tag: 'latest' },
    )
    const tx = await createTxFromRPC(json as never, { common: at.common })
    const raw = tx.serialize()
    if (bytesToHex(keccak256(raw)) !== hash) {
      throw new HeaderVerificationError(`transaction ${hash}: the upstream's fields encode to another transaction`, {
        facts: { block: blockHash ? at : undefined, expectedHash: hash, gotHash: bytesToHex(keccak256(raw)) },
      })
    }
    return bytesToHex(raw)
  },
})
