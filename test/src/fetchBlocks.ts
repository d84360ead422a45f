import { rpcResult } from './rpc.js'

/** Blocks `from`…`to` (without their transactions) as the node at `url` serves them, in order. */
export function fetchBlocks(url: string, from: number, to: number): Promise<Record<string, string>[]> {
  return Promise.all(
    Array.from({ length: to - from + 1 }, (_, i) =>
      rpcResult(url, 'eth_getBlockByNumber', [`0x${(from + i).toString(16)}`, false]),
    ),
  )
}
