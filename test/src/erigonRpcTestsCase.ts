import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'

// Cases rebuilt from erigontech/rpc-tests (test/fixtures/erigon-rpc-tests/SOURCE.md): for a mainnet
// block, Erigon's debug_traceBlockByNumber with prestateTracer (diffMode false) gives each
// transaction's full pre-state (balance, nonce, code and every storage slot it touched), and its
// trace_replayBlockTransactions(["trace","stateDiff"]) gives what we compare against. The corpus
// records neither the signed transactions nor the block's header, so what a replay needs beyond the
// pre-state is derived from the recorded outputs — each derivation named below — and the
// transaction is run as the call it makes (trace_call), which needs no signature.

export type Hex = `0x${string}`
export type Alloc = Record<
  string,
  { balance?: string; nonce?: number; code?: string; storage?: Record<string, string> }
>
type Action = Record<string, string | undefined>
export type RecordedTrace = {
  action: Action
  error?: string
  result: Record<string, string> | null
  subtraces: number
  traceAddress: number[]
  type: string
}
export type RecordedReplay = {
  output: string
  stateDiff: Record<string, Record<string, unknown>>
  trace: RecordedTrace[]
  transactionHash: string
  vmTrace: unknown
}

export type RebuiltTransaction = {
  index: number
  hash: string
  prestate: Alloc
  /** trace_call's call object, or why the transaction cannot be rebuilt. */
  call: Record<string, string> | { unbuildable: string }
  /** Erigon's recorded outputs for the transaction, those the block has. */
  replay: RecordedReplay | undefined
  diff: PrestateDiff | undefined
  flat: RecordedTrace[] | undefined
}

export type RebuiltBlock = {
  number: bigint
  /** The header fields the EVM reads, derived from the recorded outputs (see deriveHeader). */
  header: { coinbase: Hex; timestamp: bigint; baseFeePerGas: bigint }
  transactions: RebuiltTransaction[]
}

const dir = new URL('../fixtures/erigon-rpc-tests/mainnet/', import.meta.url)

/** A vendored rpc-tests file (gzip-compressed): the response's result of its single request. */
function loadResult<T>(path: string): { params: unknown[]; result: T } {
  const json = JSON.parse(gunzipSync(readFileSync(new URL(path, dir))).toString('utf8'))
  const test = Array.isArray(json) ? json[0] : json
  return { params: test.request.params, result: test.response.result }
}

/**
 * What one transaction's recorded outputs say about it: its Parity-style traces (root first; from
 * trace_replayBlockTransactions or the flatCallTracer) and the state it changed (from the
 * replay's stateDiff or the diffMode prestate).
 */
type Evidence = {
  trace: RecordedTrace[]
  /**
   * The root entry's gas is the transaction's gas limit and its gasUsed the transaction's (geth's
   * flatCallTracer), not what the top message got and used (Parity-style trace_*).
   */
  rootIsTransaction: boolean
  /** Accounts whose state the transaction changed. */
  changed: string[]
  balanceDelta(address: string): bigint
  /** Values the transaction left in storage slot `slot` of any account. */
  written(slot: string): string[]
}

function fromReplay(r: RecordedReplay): Evidence {
  return {
    trace: r.trace,
    rootIsTransaction: false,
    changed: Object.keys(r.stateDiff),
    balanceDelta(address) {
      const b = r.stateDiff[address]?.balance as Record<string, string | { from: string; to: string }> | '=' | undefined
      if (!b || b === '=') return 0n
      if (b['*'] && typeof b['*'] === 'object') return BigInt(b['*'].to) - BigInt(b['*'].from)
      if (typeof b['+'] === 'string') return BigInt(b['+'])
      if (typeof b['-'] === 'string') return -BigInt(b['-'])
      return 0n
    },
    written(slot) {
      return Object.values(r.stateDiff).flatMap((d) => {
        const s = (d.storage as Record<string, { '*'?: { to: string } }> | undefined)?.[slot]?.['*']
        return s ? [s.to] : []
      })
    },
  }
}

export type PrestateDiff = { pre: Alloc; post: Alloc }

function fromDiff(trace: RecordedTrace[], diff: PrestateDiff): Evidence {
  return {
    trace,
    rootIsTransaction: true,
    changed: Object.keys(diff.post),
    balanceDelta(address) {
      const after = diff.post[address]?.balance
      return after === undefined ? 0n : BigInt(after) - BigInt(diff.pre[address]?.balance ?? '0x0')
    },
    written(slot) {
      return Object.values(diff.post).flatMap((a) => (a.storage?.[slot] ? [a.storage[slot]] : []))
    },
  }
}

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b))

/** Whether a trace entry ran to the end: neither it nor an ancestor failed (a failed frame's effects revert). */
function survived(entry: RecordedTrace, trace: RecordedTrace[]): boolean {
  const at = entry.traceAddress
  return !trace.some(
    (e) => e.error !== undefined && e.traceAddress.every((v, i) => at[i] === v) && e.traceAddress.length <= at.length,
  )
}

/**
 * Ether moved into `address` (less what it sent) by the transaction's frames, the root's value
 * included (calls with value, creates and selfdestructs that did not revert): what, besides fees,
 * changes the sender's and the miner's balances.
 */
function netTransfers(trace: RecordedTrace[], address: string): bigint {
  let sum = 0n
  for (const e of trace) {
    if (!survived(e, trace)) continue
    const a = e.action
    if (e.type === 'call' && a.callType !== 'call') continue
    const to = e.type === 'suicide' ? a.refundAddress : e.type === 'create' ? e.result?.address : a.to
    const from = e.type === 'suicide' ? a.address : a.from
    const value = BigInt(a.value ?? a.balance ?? '0x0')
    if (to?.toLowerCase() === address) sum += value
    if (from?.toLowerCase() === address) sum -= value
  }
  return sum
}

/**
 * The header fields the EVM reads, from the block's recorded outputs:
 * - coinbase: the account whose balance changes in (nearly) every transaction — the fee recipient;
 * - baseFeePerGas: what every transaction burns is gasUsed × baseFee = (sender's fee − miner's
 *   tip); the largest number dividing most of those burns is the base fee;
 * - timestamp: Uniswap-V2-style pairs store the block time in the top 32 bits of slot 8 when they
 *   sync; the value most of the block's writes leave there.
 * Not recoverable, and so set to neutral values: prevRandao (0), the block gas limit, ancestors'
 * hashes (BLOCKHASH); a transaction that reads them can differ.
 */
function deriveHeader(evidence: Evidence[]): RebuiltBlock['header'] {
  const seen = new Map<string, number>()
  for (const e of evidence) for (const a of e.changed) seen.set(a, (seen.get(a) ?? 0) + 1)
  const coinbase = [...seen].sort((a, b) => b[1] - a[1])[0]![0] as Hex
  const burns = evidence
    .map((e) => fees(e, coinbase))
    .map(({ paid, tip }) => paid - tip)
    .filter((d) => d > 0n)
  const votes = new Map<bigint, number>()
  for (let i = 0; i + 1 < burns.length; i++) {
    const g = gcd(burns[i]!, burns[i + 1]!)
    votes.set(g, (votes.get(g) ?? 0) + 1)
  }
  const baseFeePerGas = [...votes].sort((a, b) => b[1] - a[1] || (b[0] > a[0] ? 1 : -1))[0]![0]
  const times = new Map<bigint, number>()
  const slot8 = `0x${'0'.repeat(63)}8`
  for (const e of evidence)
    for (const value of e.written(slot8)) {
      const t = BigInt(`0x${value.slice(2, 10)}`)
      times.set(t, (times.get(t) ?? 0) + 1)
    }
  const timestamp = [...times].sort((a, b) => b[1] - a[1])[0]![0]
  return { coinbase, timestamp, baseFeePerGas }
}

/** What the sender paid in fees and what the miner got as tip: their balance changes less inner transfers. */
function fees(r: Evidence, coinbase: string): { paid: bigint; tip: bigint } {
  const root = r.trace[0]!.action
  const sender = root.from!.toLowerCase()
  const paid = -r.balanceDelta(sender) + netTransfers(r.trace, sender)
  const tip = sender === coinbase ? 0n : r.balanceDelta(coinbase) - netTransfers(r.trace, coinbase)
  return { paid, tip }
}

/** Intrinsic gas under Shanghai rules, for a transaction without an access list. */
function intrinsicGas(data: string, create: boolean): bigint {
  const bytes = data.length / 2 - 1
  let gas = create ? 53000n : 21000n
  for (let i = 2; i < data.length; i += 2) gas += data.slice(i, i + 2) === '00' ? 4n : 16n
  if (create) gas += 2n * BigInt(Math.ceil(bytes / 32))
  return gas
}

/**
 * The call a transaction makes, from its recorded root trace: from, to (or none for a create),
 * value and input as recorded; gas = the root frame's gas + the intrinsic gas (no access list is
 * recorded: one that had one runs with colder accesses), or the root's gas where that is the
 * transaction's (flatCallTracer); gasPrice = the effective price, from paid = gasUsed × price and
 * paid − tip = gasUsed × baseFee.
 */
function deriveCall(r: Evidence, header: RebuiltBlock['header']): RebuiltTransaction['call'] {
  const root = r.trace[0]!
  const a = root.action
  const create = root.type === 'create'
  const data = (create ? a.init : a.input) ?? '0x'
  const { paid, tip } = fees(r, header.coinbase)
  const burnt = paid - tip
  let price: bigint
  if (burnt > 0n && burnt % header.baseFeePerGas === 0n && paid % (burnt / header.baseFeePerGas) === 0n)
    price = paid / (burnt / header.baseFeePerGas)
  else if (paid > 0n && paid % header.baseFeePerGas === 0n)
    price = header.baseFeePerGas // no tip: the miner's balance moved by transfers alone
  else return { unbuildable: `the gas price cannot be derived (paid ${paid}, tip ${tip})` }
  const intrinsic = intrinsicGas(data, create)
  const used = paid / price
  const rootUsed = root.result?.gasUsed !== undefined ? BigInt(root.result.gasUsed) : undefined
  if (r.rootIsTransaction) {
    // The root entry is the transaction: its gasUsed must be what the fee says, or the fee was misread.
    if (rootUsed !== undefined && rootUsed !== used)
      return { unbuildable: `the fee implies ${used} gas used, the recorded root ${rootUsed}` }
  } else if (rootUsed !== undefined && used - rootUsed > intrinsic) {
    // gasUsed = intrinsic + what the root frame used − refund, and refunds only lower it: a
    // transaction whose fee implies more intrinsic gas than its calldata costs had an access list,
    // which the corpus does not record (without it every access it warmed runs cold).
    return {
      unbuildable: `an access list (not recorded): its fee implies ≥ ${used - rootUsed} intrinsic gas, its calldata ${intrinsic}`,
    }
  }
  const gas = r.rootIsTransaction ? BigInt(a.gas!) : BigInt(a.gas!) + intrinsic
  const hex = (v: bigint) => `0x${v.toString(16)}`
  return {
    from: a.from!,
    ...(create ? {} : { to: a.to! }),
    gas: hex(gas),
    gasPrice: hex(price),
    value: a.value ?? '0x0',
    input: data,
  }
}

/** The vendored rpc-tests files of one block (debug_traceBlockByNumber / trace_replayBlockTransactions tests). */
export type RecordedBlockFiles = {
  /** prestateTracer, diffMode false: each transaction's full pre-state. */
  prestate: string
  /** prestateTracer, diffMode true. */
  diff?: string
  /** trace_replayBlockTransactions ["trace","stateDiff"]. */
  replay?: string
  /** flatCallTracer. */
  flat?: string
}

type PerTx<T> = { txHash: string; result: T }[]

/**
 * One recorded block: each transaction's pre-state with its recorded outputs, the header and calls
 * derived from them (from the replay's traces and stateDiff, or else from the flatCallTracer's
 * traces and the diffMode prestate).
 */
export function loadRebuiltBlock(files: RecordedBlockFiles): RebuiltBlock {
  const pre = loadResult<PerTx<Alloc>>(`debug_traceBlockByNumber/${files.prestate}.json.gz`)
  const number = BigInt(pre.params[0] as string)
  const hashes = pre.result.map((t) => t.txHash.toLowerCase())
  const sameBlock = <T>(name: string, loaded: { params: unknown[]; result: T[] }, hashOf: (t: T) => string) => {
    if (BigInt(loaded.params[0] as string) !== number) throw new Error(`${name} is another block`)
    if (loaded.result.length !== hashes.length || loaded.result.some((t, i) => hashOf(t).toLowerCase() !== hashes[i]))
      throw new Error(`${name} has other transactions than ${files.prestate}`)
    return loaded.result
  }
  const replays =
    files.replay === undefined
      ? undefined
      : sameBlock(
          files.replay,
          loadResult<RecordedReplay[]>(`trace_replayBlockTransactions/${files.replay}.json.gz`),
          (t) => t.transactionHash,
        )
  const diffs =
    files.diff === undefined
      ? undefined
      : sameBlock(
          files.diff,
          loadResult<PerTx<PrestateDiff>>(`debug_traceBlockByNumber/${files.diff}.json.gz`),
          (t) => t.txHash,
        )
  const flats =
    files.flat === undefined
      ? undefined
      : sameBlock(
          files.flat,
          loadResult<PerTx<RecordedTrace[]>>(`debug_traceBlockByNumber/${files.flat}.json.gz`),
          (t) => t.txHash,
        )
  const evidence = hashes.map((_, i) => {
    if (replays) return fromReplay(replays[i]!)
    if (flats && diffs) return fromDiff(flats[i]!.result, diffs[i]!.result)
    throw new Error(`${files.prestate}: neither a replay nor a flatCallTracer + diffMode output to derive calls from`)
  })
  const header = deriveHeader(evidence)
  const transactions = pre.result.map((p, index) => ({
    index,
    hash: hashes[index]!,
    prestate: p.result,
    call: deriveCall(evidence[index]!, header),
    replay: replays?.[index],
    diff: diffs?.[index]?.result,
    flat: flats?.[index]?.result,
  }))
  return { number, header, transactions }
}
