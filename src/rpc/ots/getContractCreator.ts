import { KECCAK256_NULL, equalsBytes } from '@ethereumjs/util'
import type { Hex } from '../../types/hex.js'
import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseAddress } from '../parsers.js'
import { blockFields } from '../trace/parityConfigs.js'
import { traceBlockTransactions } from '../trace/replayTraces.js'
import { firstBlockWhere } from '../../exec/firstBlockWhere.js'

/**
 * ots_getContractCreator(address): `{hash, creator}` of the transaction that created the contract,
 * `creator` the immediate `from` of its CREATE/CREATE2 frame (a factory for a contract it made).
 * Without an index: the first block at whose end the account has code (binary search over verified
 * code hashes), then that block replayed and traced to find the frame. null when the account has no
 * code now, or when its creating frame is not in that block (code from genesis).
 */
export const getContractCreator = defineMethod({
  name: 'ots_getContractCreator',
  params: [required(parseAddress)],
  async run(engine, [address], context): Promise<{ hash: Hex; creator: Hex } | null> {
    const header = await firstBlockWhere(engine, async (h) => {
      const account = await engine.source.getAccount(h, address)
      return account !== undefined && !equalsBytes(account.codeHash, KECCAK256_NULL)
    })
    if (!header) return null
    const traced = await traceBlockTransactions(
      engine,
      { kind: 'hash', hash: header.hash as Hex, requireCanonical: false },
      blockFields(false),
      context,
    )
    for (const tx of traced?.traced ?? []) {
      for (const entry of tx.result.trace as { type: string; action: Record<string, unknown>; result?: unknown }[]) {
        const result = entry.result as { address?: string } | null | undefined
        if (entry.type === 'create' && result?.address?.toLowerCase() === address) {
          return { hash: tx.hash as Hex, creator: String(entry.action.from).toLowerCase() as Hex }
        }
      }
    }
    return null
  },
})
