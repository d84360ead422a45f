import { bytesToHex, setLengthLeft } from '@ethereumjs/util'
import { defineMethod } from '../defineMethod.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { required } from '../params.js'
import { parseAddress } from '../parsers.js'
import type { Hex } from '../../types/hex.js'
import { parseStorageKey } from './parseStorageKey.js'
import { resolveStateBlock } from './resolveStateBlock.js'

/**
 * eth_getStorageAt(address, key, block): the slot proven against the account's storageRoot
 * (itself proven against the block's stateRoot), as 32 bytes (geth).
 */
export const getStorageAt = defineMethod({
  name: 'eth_getStorageAt',
  params: [required(parseAddress), required(parseStorageKey), required(parseBlockParameter)],
  async run(engine, [address, key, selector]): Promise<Hex> {
    const block = await resolveStateBlock(engine, selector)
    return bytesToHex(setLengthLeft(await engine.source.getStorage(block, address, key.slot), 32)) as Hex
  },
})
