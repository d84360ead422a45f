import { bytesToHex, setLengthLeft } from '@ethereumjs/util'
import { InvalidParamsRpcError, RpcError } from '../../errors/rpc.js'
import type { Hex } from '../../types/hex.js'
import { defineMethod } from '../defineMethod.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { ParamError, optional, required } from '../params.js'
import { parseAddress, parseHash, parseObject } from '../parsers.js'
import { resolveStateBlock } from './resolveStateBlock.js'

/** geth's (and Erigon's) maxGetStorageSlots: the most slots one request may ask for, over all addresses. */
const MAX_SLOTS = 1024

/** `{address: [slot, …]}` — geth's map[common.Address][]common.Hash (slots are full 32-byte hashes). */
function parseStorageRequests(raw: unknown): Map<Hex, Hex[]> {
  const requests = new Map<Hex, Hex[]>()
  for (const [key, slots] of Object.entries(parseObject(raw, 'a storage request'))) {
    const address = parseAddress(key)
    if (!Array.isArray(slots)) throw new ParamError(`slots of ${key}: expected an array of storage keys`)
    requests.set(address, [...(requests.get(address) ?? []), ...slots.map((s) => parseHash(s))])
  }
  return requests
}

/**
 * eth_getStorageValues({address: [slot, …]}, block = latest) → {address: [value, …]}: geth's batched
 * eth_getStorageAt, every value proven like one; each value 32 bytes, in the order asked. At most
 * 1,024 slots in all (-38026 `too many slots (max 1024)`); none at all is -32602 `empty request`.
 */
export const getStorageValues = defineMethod({
  name: 'eth_getStorageValues',
  params: [required(parseStorageRequests), optional(parseBlockParameter)],
  async run(engine, [requests, selector]): Promise<Record<string, Hex[]>> {
    const total = [...requests.values()].reduce((n, slots) => n + slots.length, 0)
    if (total > MAX_SLOTS) throw new RpcError(-38026, `too many slots (max ${MAX_SLOTS})`)
    if (total === 0) throw new InvalidParamsRpcError('empty request')
    const block = await resolveStateBlock(engine, selector)
    await engine.source.prefetch(
      block,
      [...requests].map(([address, storageKeys]) => ({ address, storageKeys })),
    )
    const result: Record<string, Hex[]> = {}
    // Go writes a map's keys sorted.
    for (const [address, slots] of [...requests].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      result[address] = await Promise.all(
        slots.map(
          async (slot) => bytesToHex(setLengthLeft(await engine.source.getStorage(block, address, slot), 32)) as Hex,
        ),
      )
    }
    return result
  },
})
