import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseHash } from '../parsers.js'
import { parseIndex } from './verifiedBlockAt.js'
import { uncleAt, byHash } from './blockMember.js'

/** eth_getUncleByBlockHashAndIndex(hash, index): an uncle of the verified block (its hash is in sha3Uncles); null when none. */
export const getUncleByBlockHashAndIndex = defineMethod({
  name: 'eth_getUncleByBlockHashAndIndex',
  params: [required(parseHash), required(parseIndex)],
  run: (engine, [hash, index]) => uncleAt(engine, byHash(hash), index),
})
