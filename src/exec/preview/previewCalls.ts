import { type Account, Address, KECCAK256_NULL, equalsBytes, hexToBytes } from '@ethereumjs/util'
import { addressWord, uintWord } from './abiWords.js'
import type { VerifiedHeader } from '../../chain/parseHeader.js'
import type { BlockSelector } from '../../types/blockSelector.js'
import type { Deadline } from '../../types/deadline.js'
import type { Hex } from '../../types/hex.js'
import type { Engine } from '../createEngine.js'
import { prepareSimulation } from '../prepareSimulation.js'
import { batchReadCall, listReads } from '../batchReadCall.js'
import type { AccessListEntry } from '../../state/types.js'
import type { SimulatedLog } from '../createSimulationLogRecorder.js'
import {
  type SimulateBlockInput,
  type SimulateCall,
  type SimulatedCall,
  type SimulatedCallError,
  simulateBlocks,
} from '../simulateBlocks.js'
import type { CallArgs } from '../types.js'
import type { DecodedRevert } from '../../utils/decodeRevert.js'
import { type NamedFunction, type PreviewAbis, nameCall } from './nameCall.js'
import { type TokenMetadata, createTokenMetadataCache } from './tokenMetadataCache.js'
import { decodeTokenText } from './decodeTokenText.js'
import { type ApprovalTouched, PERMIT2, approvalsTouched } from './approvalsTouched.js'
import { nftsMoved } from './nftsMoved.js'
import { type SignalFrame, createSignalFrameRecorder } from './signals/createSignalFrameRecorder.js'
import { TRANSFER_TOPIC, tokensMoved } from './tokensMoved.js'
import { positionedBase } from './positionedBase.js'

/**
 * Where the balance reader sits during the reading block (a state override of that block only, after
 * the calls' block): code `PUSH1 0 CALLDATALOAD BALANCE PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN`,
 * the balance of the address in its calldata.
 */
const READER: Hex = '0xed9e000000000000000000000000000000000ba1'
const READER_CODE: Hex = '0x6000353160005260206000f3'
const SELECTORS = {
  balanceOf: '0x70a08231',
  decimals: '0x313ce567',
  symbol: '0x95d89b41',
  name: '0x06fdde03',
  ownerOf: '0x6352211e',
  balanceOf1155: '0x00fdd58e',
  allowance: '0xdd62ed3e',
  getApproved: '0x081812fc',
  isApprovedForAll: '0xe985e9c5',
  permit2Allowance: '0x927da105',
  supportsInterface: '0x01ffc9a7',
} as const
/** ERC-1155's ERC-165 interface id. */
const ERC1155_INTERFACE = 'd9b67a26'
const ADDRESS_MASK = (1n << 160n) - 1n

/** One call of the preview, as it ran. */
export type PreviewedCall = {
  status: 'success' | 'failure'
  gasUsed: bigint
  returnData: Hex
  logs: SimulatedLog[]
  /** How it failed (geth's words and code), when it did. */
  error?: SimulatedCallError
  /** A revert's data decoded (Error(string), Panic(uint256), a custom error known by its selector, else raw). */
  revert?: DecodedRevert
  /** The function called, when the app's ABI for the address or the bundled table knows its selector. */
  function?: NamedFunction
}

export type BalanceChange = { pre: bigint; post: bigint; diff: bigint }

export type TokenStandard = 'erc20' | 'erc721' | 'erc1155'
export type TokenInfo = {
  address: Hex
  standard: TokenStandard
  symbol: string | null
  name: string | null
  decimals: number | null
}

export type TokenChange = {
  token: TokenInfo & { standard: 'erc20' }
  /** Null where `balanceOf(account)` did not answer a number (on either side). */
  value: BalanceChange | null
}

/** An NFT the account gained or lost: ERC-721 as 0/1 by `ownerOf(tokenId)`, ERC-1155 by `balanceOf(account, id)`. */
export type NftChange = { token: TokenInfo; tokenId: bigint; value: BalanceChange | null }

/** An approval of the account, read before and after the calls (null where the read did not answer). */
export type ApprovalChange =
  | { kind: 'allowance'; token: TokenInfo; standard: 'erc20'; spender: Hex; pre: bigint | null; post: bigint | null }
  | {
      kind: 'approve'
      token: TokenInfo
      standard: 'erc721'
      tokenId: bigint
      /** The approved address after the calls (before them where that did not answer). */
      spender: Hex | null
      pre: Hex | null
      post: Hex | null
    }
  | {
      kind: 'approvalForAll'
      token: TokenInfo
      standard: 'erc721' | 'erc1155'
      spender: Hex
      pre: boolean | null
      post: boolean | null
    }
  | {
      kind: 'permit2'
      /** The ERC-20 whose Permit2 allowance it is. */
      token: TokenInfo
      standard: 'permit2'
      spender: Hex
      pre: bigint | null
      post: bigint | null
      expiration: { pre: bigint | null; post: bigint | null }
      nonce: { pre: bigint | null; post: bigint | null }
    }

export type Preview = {
  /** The block named (with a transactionIndex: the calls took the place of its transaction at that index). */
  block: VerifiedHeader
  transactionIndex?: number | undefined
  calls: PreviewedCall[]
  /** The account's ether moved by the calls' values alone (they run without fees), and the fees apart. */
  native: BalanceChange & { gasPaid: bigint }
  tokens: TokenChange[]
  nfts: NftChange[]
  approvals: ApprovalChange[]
  /** Each call's frames (kind, from, to, value, reverted), for the signals. */
  frames: SignalFrame[][]
}

export type PreviewCallsParameters = {
  /** The block whose verified state the calls run on. */
  selector: BlockSelector
  calls: readonly CallArgs[]
  account: Hex
  deadline?: Deadline | undefined
  /**
   * Run on the block's parent state after the block's first `transactionIndex` transactions, in the
   * block's own place (number, time…) — debug_traceCallMany's StateContext; without it, on the
   * block's state, in a block after it.
   */
  transactionIndex?: number | undefined
  /** ABIs the app supplied by address, to name functions and custom errors (with the bundled table). */
  abis?: PreviewAbis | undefined
  /**
   * Told the block the preview answers on as soon as it is known (before its state is fetched): what
   * needs only the block (the signals' look-back) can then ask beside the preview's own rounds.
   */
  onBlock?: ((block: VerifiedHeader) => void) | undefined
}

/** The calls without fees: their ether movements are then their values alone (the fees said apart). */
const feeless = (call: CallArgs): CallArgs => ({
  ...call,
  gasPrice: undefined,
  maxFeePerGas: undefined,
  maxPriorityFeePerGas: undefined,
})

/**
 * Gas each read (balance, allowance, metadata) may use: plenty for a view function, and bounded — a
 * read given the block's gas would take it all in a contract that burns it (an invalid jump), and
 * a few such reads would exhaust the request's gas cap, failing the whole preview.
 */
const READ_GAS = 1_000_000n
type Read = SimulateCall & { to: Hex; data: Hex }
const read = (to: Hex, data: string): Read => ({ to, data: data as Hex, gas: READ_GAS })
/** Contracts the calls' access lists name whose reads are listed speculatively (beside the state's batch). */
const MAX_SPECULATED = 16
/** Listed addresses that are no token: the system contracts, the zero address and precompiles (below 0x10000). */
const NOT_TOKENS = new Set<string>([
  '0x000f3df6d732807ef1319fb7b8bb8522d0beac02',
  '0x0000f90827f1c53a10cb7a02335b175320002935',
  '0x00000961ef480eb55e80d19ad83579a64c007002',
  '0x0000bbddc7ce488642fb579f8b00f3a590007251',
  '0xfffffffffffffffffffffffffffffffffffffffe',
])
const bare = ({ to, data }: HoldingRead): SimulateCall => ({ to, data, gas: READ_GAS })

/** A verified read of what the account holds or allows, run before and after the calls: `words` 32-byte words answered. */
type HoldingRead = SimulateCall & { to: Hex; words: number; revertIsNone: boolean }
const holding = (to: Hex, data: string, words = 1, revertIsNone = false): HoldingRead => ({
  to,
  data: data as Hex,
  words,
  revertIsNone,
})

/** The read of an approval: `allowance`, `getApproved`, `isApprovedForAll`, Permit2's `allowance(owner, token, spender)`. */
function approvalRead(a: ApprovalTouched, account: Hex): HoldingRead {
  if (a.kind === 'allowance')
    return holding(a.address, `${SELECTORS.allowance}${addressWord(account)}${addressWord(a.spender)}`)
  // getApproved, as ownerOf, reverts for a token no one owns: no approval.
  if (a.kind === 'approve') return holding(a.address, `${SELECTORS.getApproved}${uintWord(a.tokenId)}`, 1, true)
  if (a.kind === 'approvalForAll') {
    return holding(a.address, `${SELECTORS.isApprovedForAll}${addressWord(account)}${addressWord(a.spender)}`)
  }
  return holding(
    PERMIT2,
    `${SELECTORS.permit2Allowance}${addressWord(account)}${addressWord(a.address)}${addressWord(a.spender)}`,
    3,
  )
}

/** A holding read's words: those of a call that succeeded; zeros where a revert means none (ownerOf, getApproved); else null. */
function wordsOf(call: SimulatedCall | undefined, read: HoldingRead): bigint[] | null {
  if (call?.status === 0n && call.error?.code === 3 && read.revertIsNone) return new Array<bigint>(read.words).fill(0n)
  if (call?.status !== 1n || call.returnData.length < 2 + read.words * 64) return null
  return Array.from({ length: read.words }, (_, i) => BigInt(`0x${call.returnData.slice(2 + i * 64, 66 + i * 64)}`))
}

const readingBlock = (calls: SimulateCall[]): SimulateBlockInput => ({
  stateOverrides: { accounts: { [READER]: { code: READER_CODE } }, moves: {} },
  calls,
})

/** Whether an address has no code where the calls start (proven). */
async function codeless(accountAt: (address: Hex) => Promise<Account | undefined>, address: Hex): Promise<boolean> {
  const found = await accountAt(address)
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

function previewed(call: SimulatedCall, input: CallArgs | undefined, abis: PreviewAbis | undefined): PreviewedCall {
  const out: PreviewedCall = {
    status: call.status === 1n ? 'success' : 'failure',
    gasUsed: call.gasUsed,
    returnData: call.returnData,
    logs: call.logs,
  }
  const named = nameCall(input?.to, input?.data, call.error?.code === 3 ? (call.error.data ?? '0x') : undefined, abis)
  if (named.function) out.function = named.function
  if (call.error) {
    out.error = call.error
    if (named.revert) out.revert = named.revert
  }
  return out
}

/** The reads of a token's metadata: decimals, symbol, name, and whether it supports ERC-1155's interface. */
const metadataReads = (token: Hex): Read[] => [
  read(token, SELECTORS.decimals),
  read(token, SELECTORS.symbol),
  read(token, SELECTORS.name),
  read(token, `${SELECTORS.supportsInterface}${ERC1155_INTERFACE.padEnd(64, '0')}`),
]

/** A token's metadata from its four reads' results (metadataReads). */
function metadataOf([decimals, symbol, name, erc1155]: (SimulatedCall | undefined)[]): TokenMetadata {
  const text = (c: SimulatedCall | undefined) => decodeTokenText(c && c.status === 1n ? c.returnData : null)
  const places = wordOf(decimals)
  return {
    symbol: text(symbol),
    name: text(name),
    decimals: places !== null && places < 256n ? Number(places) : null,
    erc1155: wordOf(erc1155) === 1n,
  }
}

/**
 * A wallet's preview of calls from one account, on a block's verified state (eth_simulateV1's
 * machinery, prefetched as it is, without fees): each call's outcome, and what moved for the account — its ether (pre
 * from the proven account, post read by BALANCE after the calls) and every ERC-20 a Transfer (or a
 * WETH Deposit/Withdrawal) of the account names, its `balanceOf(account)` read before (on the block)
 * and after the calls (in a block after theirs), symbol, name and decimals read before (cached by
 * address and code hash: tokenMetadataCache), after for a token the calls create; every NFT
 * an ERC-721 or ERC-1155 transfer of the account names (`ownerOf(id)` as 0/1, `balanceOf(account,
 * id)`); every approval of the account an approval event names (`allowance`, `getApproved`,
 * `isApprovedForAll`, Permit2's `allowance(owner, token, spender)`), read the same way. The events
 * only say what to read.
 */
export async function previewCalls(
  engine: Engine,
  { selector, calls, account, deadline, transactionIndex, abis, onBlock }: PreviewCallsParameters,
): Promise<Preview> {
  const positioned =
    transactionIndex === undefined ? undefined : await positionedBase(engine, selector, transactionIndex, deadline)
  if (positioned) onBlock?.(positioned.block)
  const userBlock: SimulateBlockInput = { calls: calls.map(feeless), blockOverrides: positioned?.overrides }
  const opts = { validation: false, traceTransfers: false, stateRoots: false, baseState: positioned?.state }
  const ethRead = read(READER, `0x${addressWord(account)}`)
  // Every call's `to` is read as a token too (viem's simulateCalls reads it as well): a balance can
  // move with no event naming the account (a rebase); kept where it moved. Its reads are prefetched.
  const targets = [...new Set(calls.flatMap((c) => (c.to ? [c.to.toLowerCase() as Hex] : [])))]
  const targetReads = targets.map((t) => read(t, `${SELECTORS.balanceOf}${addressWord(account)}`))
  // The reading block prepared too: the reader's (absent) account is fetched with the calls' state,
  // and the targets' metadata reads listed (one creation call making them all: batchReadCall) with
  // the calls, their slots fetched in the same batch. Every other contract the calls' lists name may
  // be a token the calls move: its metadata and balance reads are listed as soon as the lists are
  // known (beside the state's batch), their slots fetched beside the first run (speculated).
  // Positioned: the parent's state, what the block's replay did not read fetched as the calls read it.
  // Targets whose metadata is cached (under the code they last had) are not listed again (the lists
  // of other contracts are asked the same way each time, so that a repeat finds them kept; their
  // slots are fetched only for a token whose metadata is not cached).
  const tokenCache = createTokenMetadataCache(engine)
  const unnamed = (t: Hex) => !tokenCache.cachedAt(t)
  let speculated: Promise<AccessListEntry[]> = Promise.resolve([])
  let candidates: Hex[] = []
  const speculate = (at: VerifiedHeader, listed: readonly AccessListEntry[]) => {
    onBlock?.(at)
    const skip = new Set<string>([account.toLowerCase(), READER, ...targets])
    candidates = [...new Set(listed.map((e) => e.address.toLowerCase() as Hex))]
      .filter((a) => !skip.has(a) && !NOT_TOKENS.has(a) && BigInt(a) > 0xffffn)
      .slice(0, MAX_SPECULATED)
    const reads = candidates.flatMap((t) => [
      ...metadataReads(t),
      read(t, `${SELECTORS.balanceOf}${addressWord(account)}`),
    ])
    speculated = listReads(engine, at, reads)
  }
  const block =
    positioned?.parent ??
    (await prepareSimulation(
      engine,
      selector,
      { ...opts, blocks: [userBlock, readingBlock([ethRead, ...targetReads])] },
      {
        also: targets.some(unnamed) ? [batchReadCall(targets.filter(unnamed).flatMap(metadataReads))] : [],
        onListed: speculate,
      },
    ))
  /** An account where the calls start (positioned: after the block's first transactions). */
  const accountAt = (address: Hex) =>
    positioned
      ? positioned.state.fork().getAccount(new Address(hexToBytes(address)))
      : engine.source.getAccount(block, address)
  // The speculated reads' slots fetched beside the first run, but a token's whose metadata is cached
  // (by its code, now proven): a preview at a new block reads those tokens' balances only.
  const speculative = speculated
    .then(async (entries) => {
      const known = new Set<string>()
      for (const c of candidates) if (tokenCache.get(tokenCache.keyOf(c, await accountAt(c)))) known.add(c)
      const wanted = entries.filter((e) => !known.has(e.address.toLowerCase()))
      if (wanted.length > 0) await engine.source.prefetch(block, wanted)
    })
    // Left to the reads, which fetch what they touch as they run.
    .catch(() => {})
  // The calls' trees, for the signals (SELFDESTRUCT, value into a frame that reverted).
  const frames = createSignalFrameRecorder(calls.length)
  const [first, preAccount] = await Promise.all([
    simulateBlocks(
      engine,
      block,
      { ...opts, blocks: [userBlock, readingBlock([ethRead])], frameHooks: frames.hooks },
      deadline,
    ),
    accountAt(account),
  ])
  const ran = first[0]!.calls
  const logs = ran.flatMap((c) => c.logs)
  const nfts = nftsMoved(logs, account)
  const evented = tokensMoved(logs, account)
  const tokens = [...evented, ...targets.filter((t) => !evented.includes(t) && !nfts.some((n) => n.address === t))]
  const approvals = approvalsTouched(logs, account)
  // Every contract named gets its metadata read after the calls (and whether it is an ERC-1155).
  const named = [...new Set<Hex>([...tokens, ...nfts.map((n) => n.address), ...approvals.map((a) => a.address)])]
  const holdings: HoldingRead[] = [
    ...tokens.map((t) => holding(t, `${SELECTORS.balanceOf}${addressWord(account)}`)),
    ...nfts.map((n) =>
      n.standard === 'erc721'
        ? holding(n.address, `${SELECTORS.ownerOf}${uintWord(n.tokenId)}`, 1, true)
        : holding(n.address, `${SELECTORS.balanceOf1155}${addressWord(account)}${uintWord(n.tokenId)}`),
    ),
    ...approvals.map((a) => approvalRead(a, account)),
  ]
  // Metadata of a token with code where the calls start is read there, before the calls (the chain's
  // own state, so it may be cached: by address and code hash, read once); of a token the calls
  // create, after them. A cached token is not read again.
  const keys = new Map(await Promise.all(named.map(async (t) => [t, tokenCache.keyOf(t, await accountAt(t))] as const)))
  const metadata = new Map<Hex, TokenMetadata>()
  for (const [t, key] of keys) {
    const cached = tokenCache.get(key)
    if (cached) metadata.set(t, cached)
  }
  const readBefore = named.filter((t) => !metadata.has(t) && keys.get(t) !== undefined)
  const readAfter = named.filter((t) => keys.get(t) === undefined)
  // Fetched before the reads run: the speculated reads' slots, and the accounts the signals read (the
  // recipients of the account's ERC-20 Transfers, the spenders its approvals name) — errors left to
  // the signals, which fetch on demand.
  const signalAccounts = [
    ...logs.flatMap((l) =>
      l.topics.length === 3 && l.topics[0]!.toLowerCase() === TRANSFER_TOPIC && BigInt(l.topics[1]!) === BigInt(account)
        ? [`0x${l.topics[2]!.slice(26)}` as Hex]
        : [],
    ),
    ...approvals.flatMap((a) => (a.kind === 'approve' ? [] : [a.spender])),
  ].map((address): AccessListEntry => ({ address, storageKeys: [] }))
  await Promise.all([
    speculative,
    signalAccounts.length > 0 && engine.source.prefetch(positioned?.block ?? block, signalAccounts).catch(() => {}),
  ])
  let post = first[1]!.calls
  let pre: (bigint[] | null)[] = []
  if (holdings.length > 0) {
    const [after, before] = await Promise.all([
      simulateBlocks(
        engine,
        block,
        {
          ...opts,
          blocks: [userBlock, readingBlock([ethRead, ...holdings.map(bare), ...readAfter.flatMap(metadataReads)])],
        },
        deadline,
      ),
      simulateBlocks(
        engine,
        block,
        { ...opts, blocks: [{ calls: [...holdings.map(bare), ...readBefore.flatMap(metadataReads)] }] },
        deadline,
      ),
    ])
    post = after[1]!.calls
    const taken = (results: SimulatedCall[], tokens: Hex[], at: number) => {
      for (const [i, t] of tokens.entries()) metadata.set(t, metadataOf(results.slice(at + i * 4, at + i * 4 + 4)))
    }
    taken(post, readAfter, 1 + holdings.length)
    taken(before[0]!.calls, readBefore, holdings.length)
    for (const t of readBefore) tokenCache.set(keys.get(t), metadata.get(t)!)
    const held = before[0]!.calls.slice(0, holdings.length)
    // A contract the calls create has no code on the block: what it holds there is none (zero).
    pre = await Promise.all(
      held.map(
        async (c, i) =>
          wordsOf(c, holdings[i]!) ??
          ((await codeless(accountAt, holdings[i]!.to)) ? new Array<bigint>(holdings[i]!.words).fill(0n) : null),
      ),
    )
  }
  const postHeld = holdings.map((h, i) => wordsOf(post[1 + i], h))
  const infoOf = (address: Hex, standard: TokenStandard): TokenInfo => {
    const { symbol, name, decimals } = metadata.get(address) ?? metadataOf([])
    return { address, standard, symbol, name, decimals }
  }
  const is1155 = (address: Hex) =>
    nfts.some((n) => n.address === address && n.standard === 'erc1155') || metadata.get(address)?.erc1155 === true
  const change = (before: bigint | null | undefined, after: bigint | null | undefined): BalanceChange | null =>
    before !== null && before !== undefined && after !== null && after !== undefined
      ? { pre: before, post: after, diff: after - before }
      : null
  const owned = (words: bigint[] | null | undefined) =>
    words ? ((words[0]! & ADDRESS_MASK) === BigInt(account) ? 1n : 0n) : null
  const asAddress = (words: bigint[] | null | undefined): Hex | null =>
    words ? (`0x${(words[0]! & ADDRESS_MASK).toString(16).padStart(40, '0')}` as Hex) : null
  const asBool = (words: bigint[] | null | undefined) => (words ? words[0] !== 0n : null)

  const baseFee = block.header.baseFeePerGas === undefined ? 0n : block.header.calcNextBaseFee()
  const ethPre = preAccount?.balance ?? 0n
  const ethPost = wordOf(post[0]) ?? 0n
  return {
    block: positioned?.block ?? block,
    transactionIndex,
    calls: ran.map((c, i) => previewed(c, calls[i], abis)),
    frames: frames.trees(),
    native: {
      pre: ethPre,
      post: ethPost,
      diff: ethPost - ethPre,
      gasPaid: ran.reduce((sum, c, i) => sum + c.gasUsed * gasPriceOf(calls[i]!, baseFee), 0n),
    },
    tokens: tokens
      .map((address, i) => ({
        token: { ...infoOf(address, 'erc20'), standard: 'erc20' as const },
        value: change(pre[i]?.[0], postHeld[i]?.[0]),
      }))
      // A call's target no event named: only where its balanceOf answered on both sides and moved.
      .filter((t, i) => i < evented.length || (t.value !== null && t.value.diff !== 0n)),
    nfts: nfts.map((n, j) => {
      const i = tokens.length + j
      const [before, after] =
        n.standard === 'erc721' ? [owned(pre[i]), owned(postHeld[i])] : [pre[i]?.[0], postHeld[i]?.[0]]
      return { token: infoOf(n.address, n.standard), tokenId: n.tokenId, value: change(before, after) }
    }),
    approvals: approvals.map((a, k): ApprovalChange => {
      const i = tokens.length + nfts.length + k
      const [before, after] = [pre[i], postHeld[i]]
      if (a.kind === 'allowance') {
        const token = infoOf(a.address, 'erc20')
        return {
          kind: a.kind,
          token,
          standard: 'erc20',
          spender: a.spender,
          pre: before?.[0] ?? null,
          post: after?.[0] ?? null,
        }
      }
      if (a.kind === 'approve') {
        const [was, now] = [asAddress(before), asAddress(after)]
        const token = infoOf(a.address, 'erc721')
        return { kind: a.kind, token, standard: 'erc721', tokenId: a.tokenId, spender: now ?? was, pre: was, post: now }
      }
      if (a.kind === 'approvalForAll') {
        const standard = is1155(a.address) ? 'erc1155' : 'erc721'
        const token = infoOf(a.address, standard)
        return { kind: a.kind, token, standard, spender: a.spender, pre: asBool(before), post: asBool(after) }
      }
      return {
        kind: a.kind,
        token: infoOf(a.address, 'erc20'),
        standard: 'permit2',
        spender: a.spender,
        pre: before?.[0] ?? null,
        post: after?.[0] ?? null,
        expiration: { pre: before?.[1] ?? null, post: after?.[1] ?? null },
        nonce: { pre: before?.[2] ?? null, post: after?.[2] ?? null },
      }
    }),
  }
}
