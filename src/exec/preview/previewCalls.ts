import { KECCAK256_NULL, equalsBytes } from '@ethereumjs/util'
import type { VerifiedHeader } from '../../chain/parseHeader.js'
import type { BlockSelector } from '../../types/blockSelector.js'
import type { Deadline } from '../../types/deadline.js'
import type { Hex } from '../../types/hex.js'
import type { Engine } from '../createEngine.js'
import { prepareSimulation } from '../prepareSimulation.js'
import type { SimulatedLog } from '../createSimulationLogRecorder.js'
import {
  type SimulateBlockInput,
  type SimulateCall,
  type SimulatedCall,
  type SimulatedCallError,
  simulateBlocks,
} from '../simulateBlocks.js'
import type { CallArgs } from '../types.js'
import { type DecodedRevert, decodeRevert } from './decodeRevert.js'
import { decodeTokenText } from './decodeTokenText.js'
import { tokensMoved } from './tokensMoved.js'

/**
 * Where the balance reader sits during the reading block (a state override of that block only, after
 * the calls' block): code `PUSH1 0 CALLDATALOAD BALANCE PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN`,
 * the balance of the address in its calldata.
 */
const READER: Hex = '0xed9e000000000000000000000000000000000ba1'
const READER_CODE: Hex = '0x6000353160005260206000f3'
const SELECTORS = { balanceOf: '0x70a08231', decimals: '0x313ce567', symbol: '0x95d89b41', name: '0x06fdde03' } as const

/** One call of the preview, as it ran. */
export type PreviewedCall = {
  status: 'success' | 'failure'
  gasUsed: bigint
  returnData: Hex
  logs: SimulatedLog[]
  /** How it failed (geth's words and code), when it did. */
  error?: SimulatedCallError
  /** A revert's data decoded (Error(string), Panic(uint256), else raw). */
  revert?: DecodedRevert
}

export type BalanceChange = { pre: bigint; post: bigint; diff: bigint }

export type TokenChange = {
  token: { address: Hex; standard: 'erc20'; symbol: string | null; name: string | null; decimals: number | null }
  /** Null where `balanceOf(account)` did not answer a number (on either side). */
  value: BalanceChange | null
}

export type Preview = {
  block: VerifiedHeader
  calls: PreviewedCall[]
  /** The account's ether moved by the calls' values alone (they run without fees), and the fees apart. */
  native: BalanceChange & { gasPaid: bigint }
  tokens: TokenChange[]
}

export type PreviewCallsParameters = {
  /** The block whose verified state the calls run on. */
  selector: BlockSelector
  calls: readonly CallArgs[]
  account: Hex
  deadline?: Deadline | undefined
}

/** The calls without fees: their ether movements are then their values alone (the fees said apart). */
const feeless = (call: CallArgs): CallArgs => ({
  ...call,
  gasPrice: undefined,
  maxFeePerGas: undefined,
  maxPriorityFeePerGas: undefined,
})

const read = (to: Hex, data: string): SimulateCall => ({ to, data: data as Hex })
const addressArg = (address: Hex) => address.slice(2).toLowerCase().padStart(64, '0')
const readingBlock = (calls: SimulateCall[]): SimulateBlockInput => ({
  stateOverrides: { accounts: { [READER]: { code: READER_CODE } }, moves: {} },
  calls,
})

/** Whether an address has no code on the block (proven). */
async function codeless(engine: Engine, block: VerifiedHeader, address: Hex): Promise<boolean> {
  const found = await engine.source.getAccount(block, address)
  return !found || equalsBytes(found.codeHash, KECCAK256_NULL)
}

/** A read's number: the first word of a call that succeeded, else null. */
function wordOf(call: SimulatedCall | undefined): bigint | null {
  if (call?.status !== 1n || call.returnData.length < 66) return null
  return BigInt(call.returnData.slice(0, 66))
}

/**
 * The price a call's gas is paid at in the next block: its gas price, or its fee cap and tip at the
 * block's next base fee (no tip where it gives none) — what a wallet would be charged if it were
 * mined next.
 */
function gasPriceOf(call: CallArgs, baseFee: bigint): bigint {
  if (call.gasPrice !== undefined) return call.gasPrice
  const price = baseFee + (call.maxPriorityFeePerGas ?? 0n)
  return call.maxFeePerGas !== undefined && call.maxFeePerGas < price ? call.maxFeePerGas : price
}

function previewed(call: SimulatedCall): PreviewedCall {
  const out: PreviewedCall = {
    status: call.status === 1n ? 'success' : 'failure',
    gasUsed: call.gasUsed,
    returnData: call.returnData,
    logs: call.logs,
  }
  if (call.error) {
    out.error = call.error
    if (call.error.code === 3) out.revert = decodeRevert(call.error.data ?? '0x')
  }
  return out
}

/**
 * A wallet's preview of calls from one account, on a block's verified state (eth_simulateV1's
 * machinery, prefetched as it is, without fees): each call's outcome, and what moved for the account — its ether (pre
 * from the proven account, post read by BALANCE after the calls) and every ERC-20 a Transfer (or a
 * WETH Deposit/Withdrawal) of the account names, its `balanceOf(account)` read before (on the block)
 * and after the calls (in a block after theirs), symbol, name and decimals read after. The events
 * only say which tokens to read.
 */
export async function previewCalls(
  engine: Engine,
  { selector, calls, account, deadline }: PreviewCallsParameters,
): Promise<Preview> {
  const userBlock: SimulateBlockInput = { calls: calls.map(feeless) }
  const opts = { validation: false, traceTransfers: false, stateRoots: false }
  const ethRead = read(READER, `0x${addressArg(account)}`)
  // The reading block prepared too: the reader's (absent) account is fetched with the calls' state.
  const block = await prepareSimulation(engine, selector, { ...opts, blocks: [userBlock, readingBlock([ethRead])] })
  const [first, preAccount] = await Promise.all([
    simulateBlocks(engine, block, { ...opts, blocks: [userBlock, readingBlock([ethRead])] }, deadline),
    engine.source.getAccount(block, account),
  ])
  const ran = first[0]!.calls
  const tokens = tokensMoved(
    ran.flatMap((c) => c.logs),
    account,
  )
  let post = first[1]!.calls
  let pre: (bigint | null)[] = []
  if (tokens.length > 0) {
    const balanceOf = `${SELECTORS.balanceOf}${addressArg(account)}`
    const postReads = tokens.flatMap((t) => [
      read(t, balanceOf),
      read(t, SELECTORS.decimals),
      read(t, SELECTORS.symbol),
      read(t, SELECTORS.name),
    ])
    const [after, before] = await Promise.all([
      simulateBlocks(engine, block, { ...opts, blocks: [userBlock, readingBlock([ethRead, ...postReads])] }, deadline),
      simulateBlocks(engine, block, { ...opts, blocks: [{ calls: tokens.map((t) => read(t, balanceOf)) }] }, deadline),
    ])
    post = after[1]!.calls
    // A token the calls create has no code on the block: its balance there is none (zero).
    pre = await Promise.all(
      before[0]!.calls.map(async (c, i) => wordOf(c) ?? ((await codeless(engine, block, tokens[i]!)) ? 0n : null)),
    )
  }

  const baseFee = block.header.baseFeePerGas === undefined ? 0n : block.header.calcNextBaseFee()
  const ethPre = preAccount?.balance ?? 0n
  const ethPost = wordOf(post[0]) ?? 0n
  const text = (c: SimulatedCall | undefined) => decodeTokenText(c && c.status === 1n ? c.returnData : null)
  return {
    block,
    calls: ran.map(previewed),
    native: {
      pre: ethPre,
      post: ethPost,
      diff: ethPost - ethPre,
      gasPaid: ran.reduce((sum, c, i) => sum + c.gasUsed * gasPriceOf(calls[i]!, baseFee), 0n),
    },
    tokens: tokens.map((address, i) => {
      const [balance, decimals, symbol, name] = post.slice(1 + i * 4, 5 + i * 4)
      const before = pre[i] ?? null
      const after = wordOf(balance)
      const places = wordOf(decimals)
      return {
        token: {
          address,
          standard: 'erc20',
          symbol: text(symbol),
          name: text(name),
          decimals: places !== null && places < 256n ? Number(places) : null,
        },
        value: before !== null && after !== null ? { pre: before, post: after, diff: after - before } : null,
      }
    }),
  }
}
