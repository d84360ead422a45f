import { bytesToHex } from '@ethereumjs/util'
import { ServerRpcError } from '../../errors/rpc.js'
import type { Hex } from '../../types/hex.js'
import { quantity } from '../../utils/hex.js'
import { modifiedInRange } from '../debug/modifiedInRange.js'
import { where } from '../debug/rawBlockHeader.js'
import { defineMethod } from '../defineMethod.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { required } from '../params.js'
import { BlockNotFoundError } from '../../errors/state.js'

/**
 * erigon_getBalanceChangesInBlock(block): `{address: balance after the block}` for every account whose
 * balance the block changed, keys sorted (a Go map). Which accounts the block touched comes from
 * replaying it on verified state (as debug_getModifiedAccounts*: its transactions, fee recipient,
 * rewards, withdrawals, system calls); both balances, before (the parent's state) and after (the
 * block's), are then read by proof against the two headers' stateRoots — so the answer rests on
 * proofs, and a replay that missed nothing is only needed to know where to look.
 */
export const getBalanceChangesInBlock = defineMethod({
  name: 'erigon_getBalanceChangesInBlock',
  params: [required(parseBlockParameter)],
  async run(engine, [selector], context) {
    let header: Awaited<ReturnType<typeof engine.headers.resolve>>
    try {
      header = await engine.headers.resolve(selector)
    } catch (err) {
      if (err instanceof BlockNotFoundError) throw new ServerRpcError(`block ${where(selector)} not found`)
      throw err
    }
    if (header.number === 0n) throw new ServerRpcError('block 0 (genesis) has no parent to compare balances with')
    const parent = await engine.headers.byHash(bytesToHex(header.header.parentHash) as Hex)
    const touched = new Set(await modifiedInRange(engine, header, header, context))
    touched.add(header.header.coinbase.toString().toLowerCase())
    const addresses = [...touched].sort() as Hex[]
    const entries = addresses.map((address) => ({ address, storageKeys: [] }))
    await Promise.all([engine.source.prefetch(parent, entries), engine.source.prefetch(header, entries)])
    const out: Record<string, string> = {}
    for (const address of addresses) {
      const [before, after] = await Promise.all([
        engine.source.getAccount(parent, address),
        engine.source.getAccount(header, address),
      ])
      const balance = after?.balance ?? 0n
      if ((before?.balance ?? 0n) !== balance) out[address] = quantity(balance)
    }
    return out
  },
})
