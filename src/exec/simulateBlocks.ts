import { keccak256 } from '../utils/keccak256.js'
import { allowSenderWithCode } from './allowSenderWithCode.js'
import {
  type BlockHeader,
  createBlock,
  createBlockHeader,
  genTransactionsTrieRoot,
  paramsBlock,
} from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { type CustomPrecompile, type EVMOpts, getActivePrecompiles } from '@ethereumjs/evm'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import type { TypedTransaction } from '@ethereumjs/tx'
import {
  type Address,
  Account,
  bytesToHex,
  createAddressFromString,
  hexToBytes,
  toChecksumAddress,
} from '@ethereumjs/util'
import { type RunTxResult, createVM, encodeReceipt } from '@ethereumjs/vm'
import type { VerifiedHeader } from '../chain/parseHeader.js'
import { requestContracts } from '../chain/requestContracts.js'
import { toGethEvmError } from '../errors/evmErrorMap.js'
import { RpcError } from '../errors/rpc.js'
import { runTracedTransaction } from '../evm/runTracedTransaction.js'
import { warmPrecompilesAsGeth } from '../evm/warmPrecompilesAsGeth.js'
import { borPrecompiles } from './borExecution.js'
import { type OverlayStateManager, createOverlayStateManager } from '../state/createOverlayStateManager.js'
import type { AccessListEntry } from '../state/types.js'
import type { Deadline } from '../types/deadline.js'
import type { Hex } from '../types/hex.js'
import type { StateOverrides } from '../types/overrides.js'
import { decodeRevertReason } from '../utils/decodeRevertReason.js'
import { applyStateOverrides } from './applyStateOverrides.js'
import { BEACON_ROOTS_ADDRESS, HISTORY_STORAGE_ADDRESS, applySystemCalls } from './applySystemCalls.js'
import { type ReceiptLog, collectRequests, requestSystemReads } from './collectRequests.js'
import { buildCallTransaction } from './buildCallTransaction.js'
import { COOPERATIVE } from './cooperative.js'
import type { TracerHooks } from '../tracing/hooks.js'
import type { Engine } from './createEngine.js'
import { type SimulatedLog, createSimulationLogRecorder } from './createSimulationLogRecorder.js'
import { createStateRootTracker } from './createStateRootTracker.js'
import type { CallArgs } from './types.js'
import { withTimeout } from './withTimeout.js'

/** geth's limits (internal/ethapi/simulate.go). */
export const MAX_SIMULATE_BLOCKS = 256
const MAX_CALLS_PER_BLOCK = 5000
const MAX_TOTAL_CALLS = 10000
const TIMESTAMP_INCREMENT = 12n
const ZERO_HASH = new Uint8Array(32)
/** EIP-7685's requests hash of a block without requests: sha256 of nothing. */
const EMPTY_REQUESTS_HASH = hexToBytes('0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')

/** A withdrawal of a simulated block (blockOverrides.withdrawals). */
export type SimulatedWithdrawal = { index: bigint; validatorIndex: bigint; address: Hex; amount: bigint }

/** eth_simulateV1's block overrides: eth_call's and the fields only a simulated block has. */
export type SimulateBlockOverrides = {
  number?: bigint | undefined
  time?: bigint | undefined
  gasLimit?: bigint | undefined
  feeRecipient?: Hex | undefined
  prevRandao?: Hex | undefined
  baseFeePerGas?: bigint | undefined
  blobBaseFee?: bigint | undefined
  difficulty?: bigint | undefined
  beaconRoot?: Hex | undefined
  withdrawals?: SimulatedWithdrawal[] | undefined
}

export type SimulateStateOverrides = {
  accounts: StateOverrides
  /** precompile address → the address it moves to for this block. */
  moves: Record<Hex, Hex>
}

/** A simulated call: eth_call's arguments, and a blob transaction's fields. */
/** A simulated call: eth_call's arguments, a blob transaction's included. */
export type SimulateCall = CallArgs

export type SimulateBlockInput = {
  blockOverrides?: SimulateBlockOverrides | undefined
  stateOverrides?: SimulateStateOverrides | undefined
  calls: SimulateCall[]
}

export type SimulateOptions = {
  blocks: SimulateBlockInput[]
  validation: boolean
  traceTransfers: boolean
  /**
   * false: the blocks' state roots are left zero, as with --unverified (a preview reads balances,
   * not headers: no trie nodes fetched for the root). Default true.
   */
  stateRoots?: boolean | undefined
  /** Frame hooks run beside the log recorder's on every call of every block (a preview's signals read the call tree). */
  frameHooks?: Pick<TracerHooks, 'onEnter' | 'onExit'> | undefined
  /**
   * The state the blocks start from instead of `base`'s: a fork of it is taken (it is left as it
   * is), e.g. a block's parent state with its first transactions replayed (stateBefore); `base` is
   * then that overlay's block, the parent.
   */
  baseState?: OverlayStateManager | undefined
}

export type SimulatedCallError = { message: string; code: number; data?: Hex }

export type SimulatedCall = {
  returnData: Hex
  logs: SimulatedLog[]
  gasUsed: bigint
  maxUsedGas: bigint
  status: 0n | 1n
  error?: SimulatedCallError
}

export type SimulatedBlock = {
  header: BlockHeader
  hash: Hex
  /** Length of the block's RLP (geth's `size`). */
  size: number
  transactions: TypedTransaction[]
  senders: Address[]
  withdrawals: SimulatedWithdrawal[]
  calls: SimulatedCall[]
}

/** The log recorder's hooks with a caller's frame hooks after them. */
function withFrameHooks(hooks: TracerHooks, extra: Pick<TracerHooks, 'onEnter' | 'onExit'>): TracerHooks {
  return {
    ...hooks,
    onEnter(frame) {
      hooks.onEnter?.(frame)
      extra.onEnter?.(frame)
    },
    onExit(frame) {
      hooks.onExit?.(frame)
      extra.onExit?.(frame)
    },
  }
}

/** An error of eth_simulateV1 with geth's code (-38010 … -38026, -32602, -32603, -32000). */
export class SimulationError extends RpcError {
  override name = 'SimulationError'
}

const EVM_ERROR_CODE = -32015
const MAX_NONCE = 2n ** 64n - 1n

type Sanitized = { overrides: SimulateBlockOverrides & { number: bigint; time: bigint }; input: SimulateBlockInput }

/**
 * geth's sanitizeChain: numbers and timestamps strictly increasing, defaults of +1 and +12 s, gaps
 * in numbers filled with empty blocks, at most 256 blocks past the base.
 */
function sanitizeChain(base: VerifiedHeader, blocks: SimulateBlockInput[]): Sanitized[] {
  const out: Sanitized[] = []
  let prevNumber = base.number
  let prevTime = base.header.timestamp
  for (const input of blocks) {
    const o = input.blockOverrides ?? {}
    const number = o.number ?? prevNumber + 1n
    if (number <= prevNumber) {
      throw new SimulationError(-38020, `block numbers must be in order: ${number} <= ${prevNumber}`)
    }
    if (number - base.number > BigInt(MAX_SIMULATE_BLOCKS)) throw new SimulationError(-38026, 'too many blocks')
    for (let n = prevNumber + 1n; n < number; n++) {
      prevTime += TIMESTAMP_INCREMENT
      out.push({ overrides: { number: n, time: prevTime }, input: { calls: [] } })
    }
    prevNumber = number
    let time: bigint
    if (o.time === undefined) time = prevTime + TIMESTAMP_INCREMENT
    else {
      time = o.time
      if (time <= prevTime) {
        throw new SimulationError(-38021, `block timestamps must be in order: ${time} <= ${prevTime}`)
      }
    }
    prevTime = time
    out.push({ overrides: { ...o, number, time }, input })
  }
  return out
}

/** geth's request-level checks, before any state is read. */
export function checkSimulateLimits(blocks: SimulateBlockInput[]): void {
  if (blocks.length === 0) throw new SimulationError(-32602, 'empty input')
  if (blocks.length > MAX_SIMULATE_BLOCKS) throw new SimulationError(-38026, 'too many blocks')
  let total = 0
  for (const b of blocks) {
    if (b.calls.length > MAX_CALLS_PER_BLOCK) {
      throw new SimulationError(-38026, `too many calls in block: ${b.calls.length} > ${MAX_CALLS_PER_BLOCK}`)
    }
    total += b.calls.length
    if (total > MAX_TOTAL_CALLS) throw new SimulationError(-38026, `too many calls: ${total} > ${MAX_TOTAL_CALLS}`)
  }
}

/** EIP-1559's next base fee; a parent before London gives the initial base fee, as geth. */
function nextBaseFee(parent: BlockHeader): bigint {
  if (!parent.common.isActivatedEIP(1559) || parent.baseFeePerGas === undefined) return 1_000_000_000n
  return parent.calcNextBaseFee()
}

/** Everything the simulation will read first (and what `listed` names), fetched verified in one batch. */
export async function prefetchSimulation(
  engine: Engine,
  base: VerifiedHeader,
  opts: SimulateOptions,
  listed: readonly AccessListEntry[] = [],
): Promise<void> {
  const entries: AccessListEntry[] = [
    ...listed,
    { address: bytesToHex(base.header.coinbase.bytes) as Hex, storageKeys: [] },
    { address: BEACON_ROOTS_ADDRESS, storageKeys: [] },
    { address: HISTORY_STORAGE_ADDRESS, storageKeys: [] },
    ...(base.header.common.isActivatedEIP(7685) ? requestSystemReads(requestContracts(base.header.common)) : []),
  ]
  for (const b of opts.blocks) {
    if (b.blockOverrides?.feeRecipient) entries.push({ address: b.blockOverrides.feeRecipient, storageKeys: [] })
    for (const address of Object.keys(b.stateOverrides?.accounts ?? {})) {
      entries.push({ address: address as Hex, storageKeys: [] })
    }
    for (const c of b.calls) {
      if (c.from) entries.push({ address: c.from, storageKeys: [] })
      if (c.to) entries.push({ address: c.to, storageKeys: [] })
      for (const e of c.accessList ?? []) entries.push(e)
    }
  }
  await engine.source.prefetch(base, entries)
}

/**
 * Runs eth_simulateV1's blocks on one state evolving from the verified state of `base`, with geth's
 * semantics (internal/ethapi/simulate.go): each block's header made from its overrides and its
 * parent, its state overrides applied, the fork's system calls, then its calls as transactions —
 * checked as a real block checks them with `validation`, else with eth_call's leniency (nonce taken
 * from state, gas defaulting to what is left of the block, zero base fee unless overridden). The
 * whole request shares the gas cap and one --rpc.evmtimeout.
 *
 * Each block's post-state root is computed from the base block's proven trie nodes and the writes
 * (createStateRootTracker); its hash, the next block's parentHash and the logs' blockHash follow.
 */
export async function simulateBlocks(
  engine: Engine,
  base: VerifiedHeader,
  opts: SimulateOptions,
  deadline?: Deadline,
): Promise<SimulatedBlock[]> {
  return withTimeout(engine.options.evmTimeoutMs, (signal) => run(engine, base, opts, signal), deadline)
}

async function run(engine: Engine, base: VerifiedHeader, opts: SimulateOptions, signal: Deadline) {
  const blocks = sanitizeChain(base, opts.blocks)
  const state =
    opts.baseState?.fork(signal) ?? createOverlayStateManager({ source: engine.source, block: base, signal })
  const roots = createStateRootTracker(engine, base)
  const cap = engine.options.gasCap
  const budget = { remaining: cap === 0n ? 2n ** 64n - 1n : cap }
  const results: SimulatedBlock[] = []
  // BLOCKHASH: simulated blocks by their hashes, the base and its ancestors from verified headers.
  const chain = {
    async getBlock(n: number) {
      const number = BigInt(n)
      let hash: Uint8Array = ZERO_HASH
      if (number === base.number) hash = hexToBytes(base.hash)
      else if (number < base.number) hash = hexToBytes(await engine.headers.ancestorHash(base, number))
      else {
        const found = results.find((b) => b.header.number === number)
        if (found) hash = hexToBytes(found.hash)
      }
      return { hash: () => hash }
    },
    async putBlock() {},
    shallowCopy: () => chain,
  }
  let parent: BlockHeader = base.header
  let parentHash: Uint8Array = hexToBytes(base.hash)
  for (const block of blocks) {
    const simulated = await simulateBlock(engine, {
      block,
      parent,
      parentHash,
      state,
      chain,
      budget,
      opts,
      signal,
      roots,
    })
    results.push(simulated)
    parent = simulated.header
    parentHash = hexToBytes(simulated.hash)
  }
  return results
}

type BlockRun = {
  block: Sanitized
  parent: BlockHeader
  parentHash: Uint8Array
  state: OverlayStateManager
  chain: unknown
  budget: { remaining: bigint }
  opts: SimulateOptions
  signal: Deadline
  roots: ReturnType<typeof createStateRootTracker>
}

function headerFields({ block, parent, parentHash, opts }: BlockRun, common: Common) {
  const o = block.overrides
  const fields: Record<string, unknown> = {
    parentHash,
    coinbase: o.feeRecipient ?? parent.coinbase,
    // After the merge a simulated block has difficulty zero (else its forks would not be active).
    difficulty: common.gteHardfork('paris') ? 0n : (o.difficulty ?? parent.difficulty),
    number: o.number,
    gasLimit: o.gasLimit ?? parent.gasLimit,
    timestamp: o.time,
    extraData: new Uint8Array(0),
    mixHash: o.prevRandao ? hexToBytes(o.prevRandao) : ZERO_HASH,
    nonce: new Uint8Array(8),
  }
  if (o.difficulty !== undefined && !common.gteHardfork('paris')) fields.difficulty = o.difficulty
  if (common.isActivatedEIP(1559)) {
    fields.baseFeePerGas = o.baseFeePerGas ?? (opts.validation ? nextBaseFee(parent) : 0n)
  }
  if (common.isActivatedEIP(4895)) fields.withdrawalsRoot = ZERO_HASH
  if (common.isActivatedEIP(4844)) {
    fields.excessBlobGas = parent.common.isActivatedEIP(4844) ? parent.calcNextExcessBlobGas(common) : 0n
    fields.blobGasUsed = 0n
    fields.parentBeaconBlockRoot = o.beaconRoot ? hexToBytes(o.beaconRoot) : ZERO_HASH
  }
  if (common.isActivatedEIP(7685)) fields.requestsHash = EMPTY_REQUESTS_HASH
  return fields
}

const precompileKey = (address: string) => address.toLowerCase().replace(/^0x/, '')

/**
 * geth's StateOverride.Apply with precompiles: a precompile moved (movePrecompileToAddress) runs at
 * its new address for this block; one given code, or moved, is no longer a precompile at its own.
 */
function precompilesFor(common: Common, overrides: SimulateStateOverrides | undefined): CustomPrecompile[] {
  if (!overrides) return []
  const active = getActivePrecompiles(common)
  const current = new Map(active)
  const addresses = Object.keys(overrides.accounts).sort()
  const dirty = new Set<string>()
  for (const address of addresses) {
    const key = precompileKey(address)
    if (dirty.has(key)) {
      throw new SimulationError(
        -32000,
        `account ${toChecksumAddress(address)} has already been overridden by a precompile`,
      )
    }
    const fn = active.get(key)
    const to = overrides.moves[address as Hex]
    if (to !== undefined) {
      if (!fn) throw new SimulationError(-32000, `account ${toChecksumAddress(address)} is not a precompile`)
      if (Object.keys(overrides.accounts).some((a) => a.toLowerCase() === to.toLowerCase())) {
        throw new SimulationError(-32000, `account ${toChecksumAddress(to)} is already overridden`)
      }
      current.set(precompileKey(to), fn)
      dirty.add(precompileKey(to))
    }
    if (fn && !dirty.has(key)) current.delete(key)
  }
  const custom: CustomPrecompile[] = []
  for (const key of active.keys()) {
    if (!current.has(key)) custom.push({ address: `0x${key}` })
  }
  for (const [key, fn] of current) {
    if (active.get(key) !== fn && fn) custom.push({ address: `0x${key}`, function: fn })
  }
  return custom
}

function txRejected(err: string, gas: bigint, code: number): SimulationError {
  return new SimulationError(code, `err: ${err} (supplied gas ${gas})`)
}

async function simulateBlock(engine: Engine, run: BlockRun): Promise<SimulatedBlock> {
  const { block, state, budget, opts, signal } = run
  const { overrides, input } = block
  const common = engine.rules.commonFor(overrides.number, overrides.time).copy()
  // The block's own parameters (blob gas per blob…), as a header's common has them.
  common.updateParams(paramsBlock)
  // geth runs simulated calls without its transaction checks (SkipTransactionChecks): no EIP-7825
  // gas cap, which ethereumjs enforces when the transaction is made — so it is made under Prague's
  // rules (same transaction types and intrinsic gas); the block runs under its own.
  const txCommon = common.copy()
  if (txCommon.isActivatedEIP(7825)) txCommon.setHardfork('prague')
  const fields = headerFields(run, common)
  const baseFee = fields.baseFeePerGas as bigint | undefined
  const customPrecompiles = precompilesFor(common, input.stateOverrides)
  if (input.stateOverrides) {
    await applyStateOverrides(state, input.stateOverrides.accounts)
    for (const [address, o] of Object.entries(input.stateOverrides.accounts)) {
      if (o.state !== undefined) run.roots.startFresh(address as Hex)
    }
  }

  const preliminary = createBlockHeader(fields as never, { common, skipConsensusFormatValidation: true, freeze: false })
  if (overrides.blobBaseFee !== undefined) {
    const blobBaseFee = overrides.blobBaseFee
    preliminary.getBlobGasPrice = () => blobBaseFee
  }
  const vm = await createVM({
    common,
    stateManager: state,
    blockchain: run.chain as never,
    evmOpts: {
      // Bor's P-256 verifier from Napoli on (not movable by precompile overrides).
      customPrecompiles: [...borPrecompiles(engine.rules, preliminary.number), ...customPrecompiles],
      // A call without fees runs in a context with a zero base fee (below), yet geth's BASEFEE is the
      // block's: the opcode answers the block's base fee whatever the context says.
      ...(baseFee !== undefined && baseFee > 0n ? { customOpcodes: [baseFeeOpcode(baseFee)] } : {}),
    },
  })
  // A moved precompile runs at its new address, yet the transaction starts with the fork's own
  // precompile addresses warm, as geth's do (the new address cold).
  if (customPrecompiles.length > 0) {
    warmPrecompilesAsGeth(vm.evm, getActivePrecompiles(common, borPrecompiles(engine.rules, preliminary.number)))
  }
  await applySystemCalls(state, preliminary)

  const recorder = createSimulationLogRecorder(opts.traceTransfers)
  const txs: TypedTransaction[] = []
  const senders: Address[] = []
  const calls: SimulatedCall[] = []
  const blockLogs: ReceiptLog[] = []
  const receipts: Uint8Array[] = []
  const bloom = new Uint8Array(256)
  const blockGasLimit = preliminary.gasLimit
  let gasUsed = 0n
  let blobGasUsed = 0n
  for (const call of input.calls) {
    if (signal.aborted) throw signal.reason
    if (COOPERATIVE.shouldYield()) await COOPERATIVE.yieldToEventLoop()
    const from = createAddressFromString(call.from ?? '0x0000000000000000000000000000000000000000')
    const account = await state.getAccount(from)
    const stateNonce = account?.nonce ?? 0n
    const nonce = call.nonce ?? stateNonce
    const remaining = blockGasLimit - gasUsed
    const asked = call.gas ?? remaining
    if (remaining < asked) {
      throw new SimulationError(-38015, `block gas limit reached: remaining: ${remaining}, required: ${asked}`)
    }
    const gas = asked > budget.remaining ? budget.remaining : asked
    const gasCapped = gas < asked
    // geth's CallDefaults with a base fee: zero 1559 fee fields unless a gas price is given.
    const args: CallArgs = { ...call, nonce, gas }
    if (baseFee !== undefined && args.gasPrice === undefined) {
      args.maxFeePerGas ??= 0n
      args.maxPriorityFeePerGas ??= 0n
    }
    // ethereumjs refuses to make a transaction with nonce 2^64-1 (EIP-2681), which geth runs here
    // (no nonce checks without validation): made with nonce 0, then given its own (its hash with it).
    const overflow = nonce >= MAX_NONCE
    const made = overflow ? { ...args, nonce: 0n } : args
    let tx: TypedTransaction
    try {
      tx = buildCallTransaction(made, gas, made.nonce!, txCommon).tx
    } catch (err) {
      // EIP-3860, which ethereumjs checks as it makes the transaction: geth's words and code.
      const size = (call.data?.length ?? 2) / 2 - 1
      if (err instanceof Error && err.message.includes('initcode size')) {
        throw txRejected(
          `max initcode size exceeded: code size ${size} limit ${common.param('maxInitCodeSize')}`,
          gas,
          -38025,
        )
      }
      throw new SimulationError(-32602, err instanceof Error ? err.message : String(err))
    }
    if (overflow) (tx as { nonce: bigint }).nonce = nonce
    const feeCap = 'maxFeePerGas' in tx ? tx.maxFeePerGas : (tx as { gasPrice: bigint }).gasPrice
    const tipCap = 'maxPriorityFeePerGas' in tx ? tx.maxPriorityFeePerGas : feeCap
    const who = toChecksumAddress(from.toString())

    // The checks of geth's state transition, in its order, with its messages.
    if (opts.validation) {
      if (stateNonce < nonce) {
        throw txRejected(`nonce too high: address ${who}, tx: ${nonce} state: ${stateNonce}`, gas, -38011)
      }
      if (stateNonce > nonce) {
        throw txRejected(`nonce too low: address ${who}, tx: ${nonce} state: ${stateNonce}`, gas, -38010)
      }
      // geth's ErrNonceMax (the nonce could not be raised past 2^64-1), which its simulate maps to
      // no code of its own: -32603.
      if (stateNonce >= MAX_NONCE) {
        throw txRejected(`nonce has max value: address ${who}, nonce: ${stateNonce}`, gas, -32603)
      }
    }
    const skipFeeCheck = !opts.validation && feeCap === 0n && tipCap === 0n
    if (baseFee !== undefined && !skipFeeCheck) {
      if (feeCap < tipCap) {
        throw txRejected(
          `max priority fee per gas higher than max fee per gas: address ${who}, maxPriorityFeePerGas: ${tipCap}, maxFeePerGas: ${feeCap}`,
          gas,
          -32602,
        )
      }
      if (feeCap < baseFee) {
        throw txRejected(
          `max fee per gas less than block base fee: address ${who}, maxFeePerGas: ${feeCap}, baseFee: ${baseFee}`,
          gas,
          -38012,
        )
      }
    }
    const blobFeeCap = call.blobVersionedHashes ? (call.maxFeePerBlobGas ?? 0n) : 0n
    const blobGas = BigInt(call.blobVersionedHashes?.length ?? 0) * common.param('blobGasPerBlob')
    if (blobGas > 0n && !(!opts.validation && blobFeeCap === 0n)) {
      const blobBaseFee = preliminary.getBlobGasPrice()
      if (blobFeeCap < blobBaseFee) {
        throw txRejected(
          `max fee per blob gas less than block blob gas fee: address ${who} blobGasFeeCap: ${blobFeeCap}, blobBaseFee: ${blobBaseFee}`,
          gas,
          -32603,
        )
      }
    }
    const balance = account?.balance ?? 0n
    const want = gas * feeCap + tx.value + blobGas * blobFeeCap
    if (balance < want) {
      throw txRejected(
        `insufficient funds for gas * price + value: address ${who} have ${balance} want ${want}`,
        gas,
        -38014,
      )
    }
    const intrinsic = tx.getIntrinsicGas()
    if (gas < intrinsic) throw txRejected(`intrinsic gas too low: have ${gas}, want ${intrinsic}`, gas, -38013)
    const floor = common.isActivatedEIP(7623) ? calldataFloorGas(tx.data) : 0n
    if (gas < floor) {
      throw txRejected(`insufficient gas for floor data gas cost: have ${gas}, want ${floor}`, gas, -32603)
    }

    // A call without fees runs with a zero base fee (geth's NoBaseFee): the EVM would refuse it.
    const contextFields: Record<string, unknown> = { ...fields, gasUsed }
    if (skipFeeCheck && baseFee !== undefined) contextFields.baseFeePerGas = 0n
    const context = createBlock(
      { header: contextFields as never },
      { common, skipConsensusFormatValidation: true, freeze: false },
    )
    if (overrides.blobBaseFee !== undefined) {
      const blobBaseFee = overrides.blobBaseFee
      context.header.getBlobGasPrice = () => blobBaseFee
    }
    recorder.reset()
    const restoreSenderCheck = await allowSenderWithCode(state, from)
    let result: RunTxResult
    try {
      result = await runTracedTransaction(
        vm,
        tx,
        context,
        opts.frameHooks ? withFrameHooks(recorder.hooks, opts.frameHooks) : recorder.hooks,
        {
          skipNonce: true,
          skipBalance: true,
          skipBlockGasLimitValidation: true,
          skipHardForkValidation: true,
          blockGasUsed: gasUsed,
        },
        { signal, scheduler: COOPERATIVE, borLogs: engine.rules.bor !== undefined, engine },
      )
    } catch (err) {
      if (signal.aborted) throw signal.reason
      throw txRejected(err instanceof Error ? err.message : String(err), gas, -32603)
    } finally {
      restoreSenderCheck()
    }
    // geth's nonce is a uint64: past 2^64-1 it wraps to 0.
    if (overflow) {
      const sender = await state.getAccount(from)
      if (sender && sender.nonce >= 2n ** 64n) {
        sender.nonce -= 2n ** 64n
        await state.putAccount(from, sender)
      }
    }
    gasUsed += result.totalGasSpent
    blobGasUsed += blobGas
    if (result.totalGasSpent > budget.remaining) {
      throw new SimulationError(
        -32000,
        `RPC gas cap exhausted: need ${result.totalGasSpent}, remaining ${budget.remaining}`,
      )
    }
    budget.remaining -= result.totalGasSpent
    // Before Byzantium a receipt holds the state root after its transaction (the overlay has none).
    if (!common.gteHardfork('byzantium') && !engine.options.unverified && opts.stateRoots !== false) {
      ;(result.receipt as { stateRoot?: Uint8Array }).stateRoot = await run.roots.root(state, overrides.number)
    }
    receipts.push(encodeReceipt(result.receipt, tx.type))
    blockLogs.push(...(result.receipt.logs as ReceiptLog[]))
    for (let i = 0; i < 256; i++) bloom[i]! |= result.bloom.bitvector[i]!
    txs.push(tx)
    senders.push(from)

    const exec = result.execResult
    let peak = exec.executionGasUsed + intrinsic
    if (peak < floor) peak = floor
    const simulated: SimulatedCall = {
      // geth's Return(): the output of a call that succeeded; a failed one's is in its error.
      returnData: (exec.exceptionError ? '0x' : bytesToHex(exec.returnValue)) as Hex,
      logs: recorder.logs(),
      gasUsed: result.totalGasSpent,
      maxUsedGas: peak,
      status: exec.exceptionError ? 0n : 1n,
    }
    if (exec.exceptionError) {
      if (exec.exceptionError.error === 'revert') {
        const reason = decodeRevertReason(exec.returnValue)
        simulated.error = {
          message: reason ? `execution reverted: ${reason}` : 'execution reverted',
          code: 3,
          data: bytesToHex(exec.returnValue) as Hex,
        }
      } else {
        const rs = exec.runState
        const opcode = rs ? rs.code[rs.programCounter] : undefined
        let message = toGethEvmError(exec.exceptionError.error, opcode)
        if (gasCapped) message += " (gas limit was capped by the RPC server's global gas cap)"
        simulated.error = { message, code: EVM_ERROR_CODE }
      }
    }
    calls.push(simulated)
  }

  // EIP-7685 (Prague on): the block's requests, after its transactions, before its withdrawals.
  let requestsHash: Uint8Array | undefined
  if (common.isActivatedEIP(7685)) {
    requestsHash = await collectRequests(vm, blockLogs, requestContracts(common))
  }

  // Before the merge the block's miner is paid its reward (ethash's Finalize; a simulated block has no uncles).
  if (!common.gteHardfork('paris')) {
    const reward = common.gteHardfork('constantinople')
      ? 2n * 10n ** 18n
      : common.gteHardfork('byzantium')
        ? 3n * 10n ** 18n
        : 5n * 10n ** 18n
    const miner = await state.getAccount(preliminary.coinbase)
    const paid = miner ?? new Account()
    paid.balance += reward
    await state.putAccount(preliminary.coinbase, paid)
  }

  const withdrawals = overrides.withdrawals ?? []
  for (const w of withdrawals) {
    if (w.amount === 0n) continue
    const address = createAddressFromString(w.address)
    const account = (await state.getAccount(address)) ?? new Account()
    account.balance += w.amount * 1_000_000_000n
    await state.putAccount(address, account)
  }

  const receiptTrie = new MerklePatriciaTrie({ useKeyHashingFunction: keccak256 })
  for (let i = 0; i < receipts.length; i++) await receiptTrie.put(RLP.encode(i), receipts[i]!)
  const finalFields: Record<string, unknown> = {
    ...fields,
    gasUsed,
    ...(common.isActivatedEIP(4844) ? { blobGasUsed } : {}),
    transactionsTrie: await genTransactionsTrieRoot(txs),
    receiptTrie: receiptTrie.root(),
    logsBloom: bloom,
    ...(requestsHash ? { requestsHash } : {}),
    // --unverified: no proofs, so no trie to apply the writes to — the zero hash, said in docs/methods.md.
    stateRoot:
      engine.options.unverified || opts.stateRoots === false
        ? ZERO_HASH
        : await run.roots.root(state, overrides.number),
  }
  if (common.isActivatedEIP(4895)) {
    const wTrie = new MerklePatriciaTrie({ useKeyHashingFunction: keccak256 })
    for (let i = 0; i < withdrawals.length; i++) {
      const w = withdrawals[i]!
      await wTrie.put(RLP.encode(i), RLP.encode([w.index, w.validatorIndex, hexToBytes(w.address), w.amount]))
    }
    finalFields.withdrawalsRoot = wTrie.root()
  }
  const header = createBlockHeader(finalFields as never, { common, skipConsensusFormatValidation: true })
  // geth's block RLP (its `size`): header, transactions (typed ones as their envelope bytes), no
  // uncles, withdrawals after Shanghai. Built here: a Block would re-make the transactions under the
  // block's rules (and refuse gas above EIP-7825's cap, which simulated calls may use).
  const body: unknown[] = [header.raw(), txs.map((tx) => (tx.type === 0 ? tx.raw() : tx.serialize())), []]
  if (common.isActivatedEIP(4895)) {
    body.push(withdrawals.map((w) => [w.index, w.validatorIndex, hexToBytes(w.address), w.amount]))
  }
  const size = RLP.encode(body as never).length
  const hash = bytesToHex(header.hash()) as Hex
  return {
    header,
    hash,
    size,
    transactions: txs,
    senders,
    withdrawals,
    calls,
  }
}

/** A blob transaction of a simulated call (geth's ToTransaction with blob hashes), unsigned, from `from`. */
/** BASEFEE (0x48, 2 gas) answering `baseFee`. */
function baseFeeOpcode(baseFee: bigint): NonNullable<EVMOpts['customOpcodes']>[number] {
  return {
    opcode: 0x48,
    opcodeName: 'BASEFEE',
    baseFee: 2,
    logicFunction: (runState: { stack: { push(v: bigint): void } }) => {
      runState.stack.push(baseFee)
    },
  } as never
}

function calldataFloorGas(data: Uint8Array): bigint {
  let tokens = 0n
  for (const b of data) tokens += b === 0 ? 1n : 4n
  return 21000n + 10n * tokens
}
