import { bytesToHex, setLengthLeft } from '@ethereumjs/util'
import { defineMethod } from '../defineMethod.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { ParamError, optional, required } from '../params.js'
import { parseAddress } from '../parsers.js'
import type { Hex } from '../../types/hex.js'
import { type StorageKey, parseStorageKey } from './parseStorageKey.js'
import { InvalidParamsRpcError } from '../../errors/rpc.js'
import { resolveStateBlock } from './resolveStateBlock.js'

function parseString(raw: unknown): string {
  if (typeof raw !== 'string') throw new ParamError('json: cannot unmarshal non-string into Go value of type string')
  return raw
}

/**
 * The key as the reference daemon reads it (the lenient decoding geth and it share), refused in its
 * words: a -32602 from the method itself, not an argument-decoding error.
 */
function storageKey(raw: string): StorageKey {
  try {
    return parseStorageKey(raw)
  } catch (err) {
    if (!(err instanceof ParamError)) throw err
    if (err.message.includes('too long')) throw new InvalidParamsRpcError('hex string too long, want at most 32 bytes')
    throw new InvalidParamsRpcError('unable to decode storage key: hex string invalid')
  }
}

/**
 * eth_getStorageAt(address, key, block = latest): the slot proven against the account's storageRoot
 * (itself proven against the block's stateRoot), as 32 bytes (geth).
 */
export const getStorageAt = defineMethod({
  name: 'eth_getStorageAt',
  params: [required(parseAddress), required(parseString), optional(parseBlockParameter)],
  async run(engine, [address, rawKey, selector]): Promise<Hex> {
    const key = storageKey(rawKey)
    const block = await resolveStateBlock(engine, selector)
    return bytesToHex(setLengthLeft(await engine.source.getStorage(block, address, key.slot), 32)) as Hex
  },
})
