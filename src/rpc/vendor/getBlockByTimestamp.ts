import type { VerifiedHeader } from '../../chain/parseHeader.js'
import { fetchVerifiedBlock } from '../../exec/fetchVerifiedBlock.js'
import { defineMethod } from '../defineMethod.js'
import { ParamError, required } from '../params.js'
import { describe, parseBool } from '../parsers.js'
import { formatBlock } from '../eth/formatBlock.js'

const MAX_UINT64 = 2n ** 64n - 1n

/** rpc.Timestamp: a decimal or 0x-hex number, as a string or a bare JSON number. */
export function parseTimestamp(raw: unknown): bigint {
  let value: bigint | undefined
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0) value = BigInt(raw)
  else if (typeof raw === 'string' && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(raw)) value = BigInt(raw)
  if (value === undefined || value > MAX_UINT64)
    throw new ParamError(`expected a timestamp (decimal or 0x-hex), got ${describe(raw)}`)
  return value
}

/**
 * erigon_getBlockByTimestamp(ts, fullTx): the first block whose time is ≥ ts — the head when ts is at
 * or past the head's time, genesis when at or before genesis' — found by binary search over verified
 * headers (O(log n) header requests); the block itself verified part by part.
 */
export const getBlockByTimestamp = defineMethod({
  name: 'erigon_getBlockByTimestamp',
  params: [required(parseTimestamp), required(parseBool)],
  async run(engine, [ts, fullTx]) {
    const at = (number: bigint) => engine.headers.resolve({ kind: 'number', number })
    const head = await engine.headers.resolve({ kind: 'tag', tag: 'latest' })
    let found: VerifiedHeader
    if (ts >= head.header.timestamp) found = head
    else {
      const genesis = await at(0n)
      if (ts <= genesis.header.timestamp) found = genesis
      else {
        // Invariant: block lo has time < ts, block hi has time ≥ ts.
        let lo = 0n
        let hi = head.number
        found = head
        while (hi - lo > 1n) {
          const mid = (lo + hi) / 2n
          const header = await at(mid)
          if (header.header.timestamp >= ts) {
            hi = mid
            found = header
          } else lo = mid
        }
      }
    }
    return formatBlock((await fetchVerifiedBlock(engine, found)).block, fullTx)
  },
})
