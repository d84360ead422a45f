import { bytesToHex, concatBytes, hexToBytes } from '@ethereumjs/util'
import { keccak256 } from '../../src/utils/keccak256.js'
import { rpcResult } from './rpc.js'

const word = (hex: string) => hexToBytes(`0x${BigInt(hex).toString(16).padStart(64, '0')}` as `0x${string}`)

/** bor_getRootHash's tree, built here from a node's own block JSON (not by the code under test). */
export async function expectedRoot(url: string, start: number, end: number): Promise<string> {
  let level: Uint8Array[] = []
  for (let n = start; n <= end; n++) {
    const b = await rpcResult(url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])
    level.push(
      keccak256(
        concatBytes(word(b.number), word(b.timestamp), hexToBytes(b.transactionsRoot), hexToBytes(b.receiptsRoot)),
      ),
    )
  }
  let width = 1
  while (width < level.length) width *= 2
  while (level.length < width) level.push(new Uint8Array(32))
  while (level.length > 1) {
    const next: Uint8Array[] = []
    for (let i = 0; i < level.length; i += 2) next.push(keccak256(concatBytes(level[i]!, level[i + 1]!)))
    level = next
  }
  return bytesToHex(level[0]!).slice(2)
}
