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
  expected: RecordedReplay
  /** Erigon's prestateTracer with diffMode true for the transaction, when recorded. */
  expectedDiff?: { pre: Alloc; post: Alloc } | undefined
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

function balanceDelta(stateDiff: RecordedReplay['stateDiff'], address: string): bigint {
  const b = stateDiff[address]?.balance as Record<string, string | { from: string; to: string }> | '=' | undefined
  if (!b || b === '=') return 0n
  if (b['*'] && typeof b['*'] === 'object') return BigInt(b['*'].to) - BigInt(b['*'].from)
  if (typeof b['+'] === 'string') return BigInt(b['+'])
  if (typeof b['-'] === 'string') return -BigInt(b['-'])
  return 0n
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
 * Ether moved into `address` by the transaction's inner frames (calls with value and
 * selfdestructs that did not revert): what, besides fees, changes the sender's and the miner's
 * balances.
 */
function innerInflow(trace: RecordedTrace[], address: string): bigint {
  let sum = 0n
  for (const e of trace.slice(1)) {
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
function deriveHeader(replays: RecordedReplay[]): RebuiltBlock['header'] {
  const seen = new Map<string, number>()
  for (const r of replays) for (const a of Object.keys(r.stateDiff)) seen.set(a, (seen.get(a) ?? 0) + 1)
  const coinbase = [...seen].sort((a, b) => b[1] - a[1])[0]![0] as Hex
  const burns = replays
    .map((r) => fees(r, coinbase))
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
  for (const r of replays)
    for (const diff of Object.values(r.stateDiff)) {
      const s = (diff.storage as Record<string, { '*'?: { to: string } }> | undefined)?.[slot8]?.['*']
      if (s) {
        const t = BigInt(`0x${s.to.slice(2, 10)}`)
        times.set(t, (times.get(t) ?? 0) + 1)
      }
    }
  const timestamp = [...times].sort((a, b) => b[1] - a[1])[0]![0]
  return { coinbase, timestamp, baseFeePerGas }
}

/** What the sender paid in fees and what the miner got as tip, from the stateDiff less inner transfers. */
function fees(r: RecordedReplay, coinbase: string): { paid: bigint; tip: bigint } {
  const root = r.trace[0]!.action
  const sender = root.from!.toLowerCase()
  // A failed root frame hands its value back: only the fee leaves the sender then.
  const value = r.trace[0]!.error === undefined ? BigInt(root.value ?? '0x0') : 0n
  const paid = -balanceDelta(r.stateDiff, sender) - value + innerInflow(r.trace, sender)
  const tip = sender === coinbase ? 0n : balanceDelta(r.stateDiff, coinbase) - innerInflow(r.trace, coinbase)
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
 * recorded: one that had one runs with colder accesses); gasPrice = the effective price, from
 * paid = gasUsed × price and paid − tip = gasUsed × baseFee.
 */
function deriveCall(r: RecordedReplay, header: RebuiltBlock['header']): RebuiltTransaction['call'] {
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
  // gasUsed = intrinsic + what the root frame used − refund, and refunds only lower it: a
  // transaction whose fee implies more intrinsic gas than its calldata costs had an access list,
  // which the corpus does not record (without it every access it warmed runs cold).
  const used = paid / price
  const rootUsed = root.result?.gasUsed !== undefined ? BigInt(root.result.gasUsed) : undefined
  if (rootUsed !== undefined && used - rootUsed > intrinsic)
    return {
      unbuildable: `an access list (not recorded): its fee implies ≥ ${used - rootUsed} intrinsic gas, its calldata ${intrinsic}`,
    }
  const gas = BigInt(a.gas!) + intrinsic
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

/**
 * One recorded block: each transaction's pre-state (debug_traceBlockByNumber test `prestate`) with
 * its recorded replay (trace_replayBlockTransactions test `replay`) and, if given, its diffMode
 * prestate (debug_traceBlockByNumber test `diff`), the derived header and calls.
 */
export function loadRebuiltBlock(prestate: string, replay: string, diff?: string): RebuiltBlock {
  const pre = loadResult<{ txHash: string; result: Alloc }[]>(`debug_traceBlockByNumber/${prestate}.json.gz`)
  const rep = loadResult<RecordedReplay[]>(`trace_replayBlockTransactions/${replay}.json.gz`)
  const number = BigInt(pre.params[0] as string)
  if (BigInt(rep.params[0] as string) !== number) throw new Error(`${prestate} and ${replay} are different blocks`)
  if (pre.result.length !== rep.result.length) throw new Error(`${prestate} and ${replay} differ in transactions`)
  const diffs = diff
    ? loadResult<{ txHash: string; result: { pre: Alloc; post: Alloc } }[]>(`debug_traceBlockByNumber/${diff}.json.gz`)
    : undefined
  if (diffs && BigInt(diffs.params[0] as string) !== number) throw new Error(`${diff} is another block`)
  const header = deriveHeader(rep.result)
  const transactions = rep.result.map((expected, index) => {
    const p = pre.result[index]!
    if (p.txHash.toLowerCase() !== expected.transactionHash.toLowerCase())
      throw new Error(`${prestate} and ${replay} differ at transaction ${index}`)
    const d = diffs?.result[index]
    if (d && d.txHash.toLowerCase() !== p.txHash.toLowerCase())
      throw new Error(`${diff} differs at transaction ${index}`)
    const call = deriveCall(expected, header)
    return { index, hash: expected.transactionHash, prestate: p.result, call, expected, expectedDiff: d?.result }
  })
  return { number, header, transactions }
}
