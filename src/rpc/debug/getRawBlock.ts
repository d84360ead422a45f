import { createBlockFromRPC, createBlockHeaderFromRPC } from '@ethereumjs/block'
import { bytesToHex, equalsBytes } from '@ethereumjs/util'
import { ServerRpcError } from '../../errors/rpc.js'
import { HeaderVerificationError } from '../../errors/state.js'
import { required } from '../params.js'
import { parseBlockNumberOrHashStrict, rawBlockHeader, where } from './rawBlockHeader.js'
import { defineMethod } from '../defineMethod.js'

/**
 * debug_getRawBlock(block): the block's RLP (header, transactions, uncles, withdrawals), built from
 * the upstream's block and checked against the verified header: transactions root, uncles hash and
 * withdrawals root must match.
 */
export const getRawBlock = defineMethod({
  name: 'debug_getRawBlock',
  params: [required(parseBlockNumberOrHashStrict)],
  async run(engine, [selector]): Promise<string> {
    const verified = await rawBlockHeader(engine, selector, 'block')
    const json = await engine.upstream.request<Record<string, unknown> | null>('eth_getBlockByHash', [
      verified.hash,
      true,
    ])
    if (!json) throw new ServerRpcError(`block #${where(selector)} not found`)
    const uncleCount = (json.uncles as unknown[] | undefined)?.length ?? 0
    const uncles = await Promise.all(
      Array.from({ length: uncleCount }, (_, i) =>
        engine.upstream.request<Record<string, unknown>>('eth_getUncleByBlockHashAndIndex', [
          verified.hash,
          `0x${i.toString(16)}`,
        ]),
      ),
    )
    const block = createBlockFromRPC(
      json as never,
      uncles.map((u) =>
        createBlockHeaderFromRPC(u as never, { common: verified.common, skipConsensusFormatValidation: true }),
      ) as never,
      {
        common: verified.common,
        skipConsensusFormatValidation: true,
      },
    )
    const bad = (what: string) =>
      new HeaderVerificationError(
        `block ${verified.number} ${verified.hash}: the upstream's ${what} do not match the header`,
        { facts: { block: verified } },
      )
    if (!equalsBytes(block.hash(), verified.header.hash())) throw bad('header fields')
    if (!(await block.transactionsTrieIsValid())) throw bad('transactions')
    if (!block.uncleHashIsValid()) throw bad('uncles')
    if (block.withdrawals !== undefined && !(await block.withdrawalsTrieIsValid())) throw bad('withdrawals')
    return bytesToHex(block.serialize())
  },
})
