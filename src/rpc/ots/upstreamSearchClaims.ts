import type { Engine } from '../../exec/createEngine.js'
import { UpstreamRpcError } from '../../errors/upstream.js'
import { ServerRpcError } from '../../errors/rpc.js'
import type { Hex } from '../../types/hex.js'
import { quantity } from '../../utils/hex.js'

/**
 * What an upstream's index says about the blocks from `cursor` on (in scan order): the blocks in
 * which it finds the address, with the transactions it names there, and how far it vouches —
 * every block between `cursor` and `coveredTo` (inclusive) that it does not list holds no hit.
 */
export type Claims = { blocks: { number: bigint; hashes: Set<Hex> }[]; coveredTo: bigint }

/** One way to ask an upstream's index; undefined when the upstream does not offer it. */
export type ClaimSource = {
  readonly name: string
  next(cursor: bigint, end: bigint): Promise<Claims>
}

/** Blocks per trace_filter request until the upstream says its limit (reth's default is 100, anvil's 300). */
const TRACE_FILTER_BLOCKS = 2048n
/** trace_filter windows asked at once (each twice: the address as from, then as to). */
const TRACE_FILTER_PARALLEL = 4n

/** An upstream answer that is not a list of hits the way the method promises it. */
function malformed(method: string, why: string): ServerRpcError {
  return new ServerRpcError(`upstream's ${method} answer is malformed: ${why}`)
}

/** A block number as a quantity, or (trace_filter's OpenEthereum shape) a JSON number. */
function blockOf(method: string, value: unknown): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,16}$/.test(value)) {
    throw malformed(method, `blockNumber ${JSON.stringify(value)}`)
  }
  return BigInt(value)
}

function hashOf(method: string, value: unknown): Hex {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(value)) {
    throw malformed(method, `transaction hash ${JSON.stringify(value)}`)
  }
  return value.toLowerCase() as Hex
}

/** Claimed hits grouped by block, in scan order, every one inside cursor…end. */
function group(method: string, pairs: [bigint, Hex][], cursor: bigint, end: bigint): Claims['blocks'] {
  const step = end >= cursor ? 1n : -1n
  const byBlock = new Map<bigint, Set<Hex>>()
  for (const [number, hash] of pairs) {
    const inside = step > 0n ? number >= cursor && number <= end : number <= cursor && number >= end
    if (!inside) throw malformed(method, `block ${number} is outside the blocks asked for (${cursor}…${end})`)
    let hashes = byBlock.get(number)
    if (!hashes) byBlock.set(number, (hashes = new Set()))
    hashes.add(hash)
  }
  return [...byBlock.entries()]
    .sort(([a], [b]) => (step > 0n ? (a < b ? -1 : 1) : a > b ? -1 : 1))
    .map(([number, hashes]) => ({ number, hashes }))
}

type OtsPage = { txs?: unknown; firstPage?: unknown; lastPage?: unknown }

/**
 * The upstream's own ots_searchTransactionsBefore / After (Erigon, anvil, reth's ots): one page of at
 * most `pageSize` transactions, whole blocks. Pages are asked with the reference's exclusive bounds.
 */
function otsClaims(engine: Engine, address: Hex, pageSize: bigint): ClaimSource {
  return {
    name: 'ots_search',
    async next(cursor, end) {
      const before = end < cursor
      const method = before ? 'ots_searchTransactionsBefore' : 'ots_searchTransactionsAfter'
      // Before: blocks < blockNum, so cursor + 1; After: blocks > blockNum, so cursor − 1 (0 = from genesis).
      const blockNum = before ? cursor + 1n : cursor - 1n
      const page = await engine.upstream.request<OtsPage>(method, [address, Number(blockNum), Number(pageSize)])
      if (!page || !Array.isArray(page.txs)) throw malformed(method, 'no txs list')
      const pairs = page.txs.map((tx): [bigint, Hex] => {
        const t = tx as { blockNumber?: unknown; hash?: unknown }
        return [blockOf(method, t.blockNumber), hashOf(method, t.hash)]
      })
      // An After page may run past our head (the upstream's head is newer): those blocks are not ours yet.
      const kept = before ? pairs : pairs.filter(([n]) => n <= end)
      const blocks = group(method, kept, cursor, end)
      // The page's own word on whether more pages follow (After says it with firstPage).
      const more = before ? page.lastPage === false : page.firstPage === false
      if (!more || kept.length < pairs.length) return { blocks, coveredTo: end }
      // A page that says more follow vouches down (up) to its last block, which it holds whole.
      const last = blocks.at(-1)
      if (!last) throw malformed(method, 'an empty page that says more pages follow')
      return { blocks, coveredTo: last.number }
    },
  }
}

type TraceEntry = { blockNumber?: unknown; transactionHash?: unknown }

/** The block limit an upstream's "range too large" error states (anvil: "limited to 300"), if it is one. */
function rangeLimit(err: unknown): bigint | undefined {
  if (!(err instanceof UpstreamRpcError) || !/range|blocks/i.test(err.message)) return undefined
  if (!/too (large|many|big)|limit|exceed|max/i.test(err.message)) return undefined
  const stated = /(\d+)/.exec(err.message)
  return stated ? BigInt(stated[1]!) : 0n
}

/**
 * The upstream's trace_filter (OpenEthereum's shape: Erigon, reth, Nethermind, Besu, anvil) over
 * consecutive windows of blocks asked at once, each asked twice — the address as a frame's from,
 * then as its to — since the two filters together mean both at once. A window the upstream finds too
 * large is asked again at the size its error states (else half), and that size is kept. Traces
 * without a transaction (block and uncle rewards) name no transaction to replay and are not hits.
 */
function traceFilterClaims(engine: Engine, address: Hex): ClaimSource {
  const filter = async (lo: bigint, hi: bigint): Promise<TraceEntry[]> => {
    const range = { fromBlock: quantity(lo), toBlock: quantity(hi) }
    const [asFrom, asTo] = await Promise.all([
      engine.upstream.request<TraceEntry[]>('trace_filter', [{ ...range, fromAddress: [address] }]),
      engine.upstream.request<TraceEntry[]>('trace_filter', [{ ...range, toAddress: [address] }]),
    ])
    if (!Array.isArray(asFrom) || !Array.isArray(asTo)) throw malformed('trace_filter', 'not a list of traces')
    return [...asFrom, ...asTo]
  }
  return {
    name: 'trace_filter',
    async next(cursor, end) {
      const step = end >= cursor ? 1n : -1n
      for (;;) {
        const size = engine.searchIndex.traceFilterBlocks ?? TRACE_FILTER_BLOCKS
        const far = cursor + step * (size * TRACE_FILTER_PARALLEL - 1n)
        const last = step > 0n ? (far < end ? far : end) : far > end ? far : end
        const windows: [bigint, bigint][] = []
        for (let at = cursor; step > 0n ? at <= last : at >= last; at += step * size) {
          const other = at + step * (size - 1n)
          const edge = step > 0n ? (other < last ? other : last) : other > last ? other : last
          windows.push(step > 0n ? [at, edge] : [edge, at])
        }
        let traces: TraceEntry[]
        try {
          traces = (await Promise.all(windows.map(([lo, hi]) => filter(lo, hi)))).flat()
        } catch (err) {
          const limit = rangeLimit(err)
          if (limit === undefined || size <= 1n) throw err
          // The upstream counts its limit as blocks (to − from + 1) or as the difference: stay under both.
          engine.searchIndex.traceFilterBlocks = limit > 1n && limit < size ? limit - 1n : size / 2n
          continue
        }
        const pairs = traces
          .filter((t) => t.transactionHash !== undefined && t.transactionHash !== null)
          .map((t): [bigint, Hex] => [
            blockOf('trace_filter', t.blockNumber),
            hashOf('trace_filter', t.transactionHash),
          ])
        return { blocks: group('trace_filter', pairs, cursor, last), coveredTo: last }
      }
    },
  }
}

/** Whether an upstream error says the method is not there (so the next way is tried). */
function isMissingMethod(err: unknown): boolean {
  return (
    err instanceof UpstreamRpcError &&
    (err.code === -32601 || /not (found|supported|available)|does not exist/i.test(err.message))
  )
}

/**
 * The upstream's index to ask, found on first use and remembered: its own ots_search*, else its
 * trace_filter, else none (the search scans). Asking is the probe: a method the upstream lacks is
 * not asked again.
 */
export async function firstClaims(
  engine: Engine,
  address: Hex,
  pageSize: bigint,
  cursor: bigint,
  end: bigint,
): Promise<{ source: ClaimSource; claims: Claims } | undefined> {
  const sources = [otsClaims(engine, address, pageSize), traceFilterClaims(engine, address)]
  for (const source of sources) {
    if (engine.searchIndex.missing.has(source.name)) continue
    try {
      return { source, claims: await source.next(cursor, end) }
    } catch (err) {
      if (!isMissingMethod(err)) throw err
      engine.searchIndex.missing.add(source.name)
    }
  }
  return undefined
}
