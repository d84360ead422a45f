import { createTxFromRLP } from '@ethereumjs/tx'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { type FixtureNode, startFixtureNode } from '../../tools/fixture-node/startFixtureNode.js'
import type { ManifestEntry, TracetestCase } from './runTracetestCase.js'

const num = (v: string | number) => BigInt(v)

/**
 * A fixture node (a real JSON-RPC upstream on loopback) serving one geth tracetest case as a chain:
 * a genesis block holding the case's `alloc` at number context.number − 1, and one block built from
 * the case's `context` (miner, number, time, difficulty, gas limit, base fee, prevRandao, blob fields
 * as geth's harness sets them; NOTES.md) that contains the case's transaction. The node executes the
 * block to fill its state root and receipts, then imports it as any recorded block.
 */
export async function startTracetestNode(
  c: TracetestCase,
  m: ManifestEntry,
): Promise<{ node: FixtureNode; txHash: `0x${string}` }> {
  const number = num(c.context.number)
  const timestamp = num(c.context.timestamp)
  const genesisTimestamp = (c.genesis as { timestamp?: string }).timestamp
  const genesis = {
    config: { chainId: m.chainId },
    number: `0x${(number - 1n).toString(16)}`,
    timestamp: `0x${(genesisTimestamp !== undefined && num(genesisTimestamp) < timestamp ? num(genesisTimestamp) : timestamp - 1n).toString(16)}`,
    gasLimit: `0x${num(c.context.gasLimit).toString(16)}`,
    difficulty: '0x0',
    alloc: c.genesis.alloc,
  }
  const node = await startFixtureNode({ genesis, hardfork: m.hardfork })
  const common = node.chain.byNumber(number - 1n)!.block.common
  const input = (c.input.startsWith('0x') ? c.input : `0x${c.input}`) as `0x${string}`
  const tx = createTxFromRLP(hexToBytes(input), { common })
  const header: Record<string, unknown> = {
    coinbase: c.context.miner,
    timestamp,
    gasLimit: num(c.context.gasLimit),
    difficulty: num(c.context.difficulty),
  }
  if (m.block.baseFeePerGas !== null) header.baseFeePerGas = BigInt(m.block.baseFeePerGas)
  if (m.block.prevRandao !== null) {
    header.mixHash = hexToBytes(m.block.prevRandao as `0x${string}`)
    header.difficulty = 0n
  }
  try {
    await node.chain.mineBlock(header, [tx])
  } catch (err) {
    await node.close()
    throw err
  }
  return { node, txHash: bytesToHex(tx.hash()) as `0x${string}` }
}
