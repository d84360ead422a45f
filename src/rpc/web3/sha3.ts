import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { keccak256 } from '../../utils/keccak256.js'
import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseData } from '../parsers.js'

/** web3_sha3(data): the keccak256 of the bytes, answered locally. */
export const sha3 = defineMethod({
  name: 'web3_sha3',
  params: [required(parseData)],
  async run(_engine, [data]) {
    return bytesToHex(keccak256(hexToBytes(data)))
  },
})
