import { GAS_PER_BLOB } from '../../utils/gasPerBlob.js'
import { Account, bytesToHex, createAddressFromString } from '@ethereumjs/util'
import type { TypedTransaction } from '@ethereumjs/tx'
import type { VerifiedHeader } from '../../chain/parseHeader.js'
import { applyStateOverrides } from '../../exec/applyStateOverrides.js'
import { BEACON_ROOTS_ADDRESS, HISTORY_STORAGE_ADDRESS, applySystemCalls } from '../../exec/applySystemCalls.js'
import { callArgsOfTransaction } from '../../exec/callArgs.js'
import type { Engine } from '../../exec/createEngine.js'
import { executeCall } from '../../exec/executeCall.js'
import { type LoadedBlock, loadBlock } from '../../exec/loadBlock.js'
import { prefetchBlock } from '../../exec/replayBlock.js'
import type { CallArgs } from '../../exec/types.js'
import { MessageRejectedError } from '../../errors/execution.js'
import { ServerRpcError } from '../../errors/rpc.js'
import { type OverlayStateManager, createOverlayStateManager } from '../../state/createOverlayStateManager.js'
import type { Deadline } from '../../types/deadline.js'
import type { Hex } from '../../types/hex.js'
import type { StateOverrides } from '../../types/overrides.js'
import { quantity } from '../../utils/hex.js'
import { fetchVerifiedReceipts } from '../debug/fetchVerifiedReceipts.js'
import { formatReceipts } from '../eth/formatReceipts.js'

export type OverlayLog = {
  address: Hex
  topics: Hex[]
  data: Hex
  blockNumber: Hex
  transactionHash: Hex
  transactionIndex: Hex
  blockHash: Hex
  blockTimestamp: Hex
  logIndex: Hex
  removed: false
}

/** A mined transaction as the call the reference daemon replays it as (its blobs and authorizations kept). */
function replayArgs(tx: TypedTransaction): CallArgs {
  const args = callArgsOfTransaction(tx)
  if ('blobVersionedHashes' in tx) {
    args.blobVersionedHashes = (tx.blobVersionedHashes as string[]).map((h) => h as Hex)
    args.maxFeePerBlobGas = (tx as unknown as { maxFeePerBlobGas: bigint }).maxFeePerBlobGas
  }
  if ('authorizationList' in tx) {
    const big = (b: Uint8Array) => (b.length === 0 ? 0n : BigInt(bytesToHex(b)))
    args.authorizationList = (tx.authorizationList as Uint8Array[][]).map(([chainId, address, nonce, y, r, s]) => ({
      chainId: big(chainId!),
      address: bytesToHex(address!) as Hex,
      nonce: big(nonce!),
      yParity: big(y!),
      r: big(r!),
      s: big(s!),
    }))
  }
  return args
}

/**
 * Whether replaying the block with these overrides provably emits no log, so it need not run: every
 * transaction is a plain call (no create, no EIP-7702 authorization) from and to accounts that are
 * not overridden, the recipient has no code in the verified state after the parent (so no EVM code
 * runs at all, and nothing creates code for a later transaction), and neither the coinbase nor a
 * system contract is overridden. A receipt or an access list cannot show that a transaction that
 * runs code does not read an account (a read leaves no trace in either, and eth_createAccessList is
 * the upstream's unverified word), so any block running code is replayed: fail closed.
 */
async function runsNoCode(engine: Engine, loaded: LoadedBlock, overridden: Set<string>): Promise<boolean> {
  const coinbase = bytesToHex(loaded.header.header.coinbase.bytes)
  if (overridden.has(coinbase) || overridden.has(BEACON_ROOTS_ADDRESS) || overridden.has(HISTORY_STORAGE_ADDRESS))
    return false
  const recipients: Hex[] = []
  for (const tx of loaded.block.transactions) {
    if (tx.to === undefined || 'authorizationList' in tx) return false
    const to = tx.to.toString() as Hex
    if (overridden.has(to) || overridden.has(tx.getSenderAddress().toString())) return false
    recipients.push(to)
  }
  await engine.source.prefetch(
    loaded.parent,
    recipients.map((address) => ({ address, storageKeys: [] })),
  )
  for (const to of recipients) if ((await engine.source.getCode(loaded.parent, to)).length > 0) return false
  return true
}

/**
 * The gas a replayed transaction gets: --rpc.gascap where its sender can pay for it (edgetrace's
 * calls check the funds for the gas bought, the reference's bailout does not), else as much as it
 * can pay for, and never less than the transaction's own limit.
 */
async function affordableGas(state: OverlayStateManager, args: CallArgs, gasCap: bigint, own: bigint): Promise<bigint> {
  const feeCap = args.maxFeePerGas ?? args.gasPrice ?? 0n
  if (feeCap === 0n) return gasCap
  const blobCost = BigInt(args.blobVersionedHashes?.length ?? 0) * GAS_PER_BLOB * (args.maxFeePerBlobGas ?? 0n)
  const balance = (await state.getAccount(createAddressFromString(args.from!)))?.balance ?? 0n
  const spare = balance - (args.value ?? 0n) - blobCost
  const affordable = spare > 0n ? spare / feeCap : 0n
  return affordable >= gasCap ? gasCap : affordable > own ? affordable : own
}

export type OverlayBlockResult = { logs: OverlayLog[]; replayed: boolean }

/**
 * The logs block `header` would have emitted had `overrides` held on its parent's state — the
 * reference daemon's overlay replay (rpc/jsonrpc/overlay_api.go replayBlock): the overrides applied
 * to the verified state after the parent, the fork's system calls, then each transaction as a call
 * from its sender with --rpc.gascap gas (so code that now emits more has the gas to), no balance
 * check for the gas bought (the reference's gas bailout); a transaction whose verified receipt says
 * it failed is not run (its sender's nonce is bumped; a failed creation runs, as in the reference);
 * one that fails in replay leaves no logs. Log indexes count the replayed logs of the block.
 */
export async function replayWithOverrides(
  engine: Engine,
  header: VerifiedHeader,
  overrides: StateOverrides,
  deadline: Deadline,
): Promise<OverlayBlockResult> {
  // A block with no transactions emits no log, whatever the state (its verified header says so).
  if (!hasTransactions(header)) return { logs: [], replayed: false }
  const loaded = await loadBlock(engine, header.hash, header.number)
  const overridden = new Set(Object.keys(overrides).map((a) => a.toLowerCase()))
  if (await runsNoCode(engine, loaded, overridden)) return { logs: [], replayed: false }
  // What the original transactions read, fetched in two batched round trips (as a plain replay
  // does) rather than one read at a time; the overrides may make them read more, fetched on demand.
  const [encoded] = await Promise.all([fetchVerifiedReceipts(engine, header), prefetchBlock(engine, loaded)])
  const receipts = formatReceipts(loaded.block, encoded)
  const state = createOverlayStateManager({ source: engine.source, block: loaded.parent, signal: deadline })
  await applyStateOverrides(state, overrides)
  await applySystemCalls(state, loaded.block.header)
  const blockHash = header.hash as Hex
  const blockNumber = quantity(header.number) as Hex
  const blockTimestamp = quantity(header.header.timestamp) as Hex
  const gasCap = engine.options.gasCap > 0n ? engine.options.gasCap : header.header.gasLimit
  const logs: OverlayLog[] = []
  for (const [i, tx] of loaded.block.transactions.entries()) {
    const args = replayArgs(tx)
    if (receipts[i]!.status === '0x0' && tx.to !== undefined) {
      const sender = createAddressFromString(args.from!)
      const account = (await state.getAccount(sender)) ?? new Account()
      account.nonce += 1n
      await state.putAccount(sender, account)
      continue
    }
    const gas = await affordableGas(state, args, gasCap, tx.gasLimit)
    const result = await executeCall(engine, {
      args: { ...args, gas: undefined },
      gasLimit: gas,
      block: header,
      baseState: state,
      deadline,
    }).catch((err: unknown) => {
      if (err instanceof MessageRejectedError)
        throw new ServerRpcError(
          `block ${header.number} ${header.hash}, transaction ${bytesToHex(tx.hash())} (index ${i}) cannot be replayed with the overrides: ${err.message}`,
        )
      throw err
    })
    if (result.outcome.status !== 'success') continue
    const transactionHash = bytesToHex(tx.hash()) as Hex
    for (const log of result.run.execResult.logs ?? []) {
      const [address, topics, data] = log as [Uint8Array, Uint8Array[], Uint8Array]
      logs.push({
        address: bytesToHex(address) as Hex,
        topics: topics.map((t) => bytesToHex(t) as Hex),
        data: bytesToHex(data) as Hex,
        blockNumber,
        transactionHash,
        transactionIndex: quantity(i) as Hex,
        blockHash,
        blockTimestamp,
        logIndex: quantity(logs.length) as Hex,
        removed: false,
      })
    }
  }
  return { logs, replayed: true }
}

/** The root of an empty trie: a header with it as transactionsRoot names a block without transactions. */
const EMPTY_TRIE_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421'

/** Whether the verified header commits to any transaction. */
export const hasTransactions = (header: VerifiedHeader): boolean =>
  bytesToHex(header.header.transactionsTrie) !== EMPTY_TRIE_ROOT
