import { createBlockHeaderFromRPC } from '@ethereumjs/block'
import { RLP } from '@ethereumjs/rlp'
import { KECCAK256_RLP, KECCAK256_RLP_ARRAY, bytesToHex, equalsBytes } from '@ethereumjs/util'
import { keccak256 } from '../../utils/keccak256.js'
import type { VerifiedHeader } from '../../chain/parseHeader.js'
import type { Engine } from '../../exec/createEngine.js'
import type { LoadedBlock } from '../../exec/loadBlock.js'
import { HeaderVerificationError } from '../../errors/state.js'
import { type ParityTrace, rewardTrace } from '../../tracing/render/parity/toParityTraces.js'

const ETHER = 10n ** 18n

/** Whether a block has reward entries: a proof-of-work block before the merge. */
export function earnsBlockReward({ header, common }: VerifiedHeader): boolean {
  return header.difficulty !== 0n && !common.gteHardfork('paris') && common.consensusType() === 'pow'
}

/**
 * Whether a block has no trace entries at all, from its verified header alone: no transactions
 * (its transactionsRoot is the empty trie's) and no block reward. trace_filter neither loads nor
 * replays such a block.
 */
export function hasNoTraces(verified: VerifiedHeader): boolean {
  return equalsBytes(verified.header.transactionsTrie, KECCAK256_RLP) && !earnsBlockReward(verified)
}

/**
 * The reward entries of a block (trace_block, trace_filter), by the chain's rules: under proof of
 * work the block reward (plus 1/32 of it per included uncle) to the coinbase, then each uncle's
 * reward ((8 + uncle number − block number) / 8 of it) to the uncle's coinbase; none after the
 * merge. Uncle headers are fetched and checked against the block's uncles hash.
 */
export async function blockRewards(engine: Engine, loaded: LoadedBlock): Promise<ParityTrace[]> {
  const { header, common } = loaded.header
  if (!earnsBlockReward(loaded.header)) return []
  // Frontier 5 ETH, Byzantium (EIP-649) 3 ETH, Constantinople (EIP-1234) 2 ETH.
  const reward = common.gteHardfork('constantinople')
    ? 2n * ETHER
    : common.gteHardfork('byzantium')
      ? 3n * ETHER
      : 5n * ETHER
  const uncles = await uncleHeaders(engine, loaded)
  const out = [
    rewardTrace(
      header.coinbase.toString(),
      'block',
      reward + (reward / 32n) * BigInt(uncles.length),
      loaded.header.hash,
      header.number,
    ),
  ]
  for (const uncle of uncles) {
    const value = ((8n + uncle.number - header.number) * reward) / 8n
    out.push(rewardTrace(uncle.coinbase.toString(), 'uncle', value, loaded.header.hash, header.number))
  }
  return out
}

async function uncleHeaders(engine: Engine, loaded: LoadedBlock) {
  const { header, common } = loaded.header
  if (equalsBytes(header.uncleHash, KECCAK256_RLP_ARRAY)) return []
  const count = Number(await engine.upstream.request<string>('eth_getUncleCountByBlockHash', [loaded.header.hash]))
  const jsons = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      engine.upstream.request<Record<string, unknown>>('eth_getUncleByBlockHashAndIndex', [
        loaded.header.hash,
        `0x${i.toString(16)}`,
      ]),
    ),
  )
  const headers = jsons.map((j) =>
    createBlockHeaderFromRPC(j as never, { common, skipConsensusFormatValidation: true }),
  )
  const hash = keccak256(RLP.encode(headers.map((h) => h.raw())))
  if (!equalsBytes(hash, header.uncleHash)) {
    throw new HeaderVerificationError(
      `block ${header.number}: the upstream's uncles hash to another hash than the header's uncles hash`,
      {
        facts: { block: loaded.header, expectedHash: bytesToHex(header.uncleHash), gotHash: bytesToHex(hash) },
      },
    )
  }
  return headers
}
