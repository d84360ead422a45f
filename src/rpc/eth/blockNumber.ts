import type { Hex } from '../../types/hex.js'
import { quantity } from '../../utils/hex.js'
import { defineMethod } from '../defineMethod.js'

/**
 * eth_blockNumber(): the number of the verified head — the header the upstream gives as `latest`,
 * hashed here (and linked to `--checkpoint` when one is set): the block every `latest` read is
 * answered at, never a number no header backs.
 */
export const blockNumber = defineMethod({
  name: 'eth_blockNumber',
  params: [],
  async run(engine): Promise<Hex> {
    return quantity((await engine.headers.resolve({ kind: 'tag', tag: 'latest' })).number)
  },
})
