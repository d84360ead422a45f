import type { VerifiedHeader } from '../../chain/parseHeader.js'
import type { Engine } from '../../exec/createEngine.js'
import { InvalidParamsRpcError, ServerRpcError } from '../../errors/rpc.js'
import { BlockNotFoundError } from '../../errors/state.js'
import type { BlockSelector } from '../../types/blockSelector.js'
import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { bloomMayMatch, logMatches } from './matchLogFilter.js'
import { type LogFilter, parseLogFilter } from './parseLogFilter.js'
import { type BlockLog, blockLogs } from './blockLogs.js'
import { verifiedHeaderRange } from './verifiedHeaderRange.js'

/**
 * The most blocks one verified eth_getLogs may cover. Erigon sets no bound and geth none unless
 * configured (then `exceed maximum block range N`, which is the -32602 given here); every header of
 * the range is fetched and checked here, so the range is bounded as trace_filter's is.
 */
export const GET_LOGS_MAX_BLOCKS = 10_000

/** Blocks whose receipts are fetched at once (each is a block and its receipts; the client batches them). */
const RECEIPT_WAVE = 100

const LATEST: BlockSelector = { kind: 'tag', tag: 'latest' }

/** A reversed range as the reference daemon words it (rpc/jsonrpc/eth_receipts.go; overlay_getLogs keeps it). */
export const referenceReversedRange = (end: bigint, begin: bigint): Error =>
  new ServerRpcError(`end (${end}) < begin (${begin})`)

/**
 * A reversed range as the execution-apis spec and geth answer it (eth/filters: errInvalidBlockRange,
 * an invalid-params error): eth_getLogs and the filters.
 */
export const specReversedRange = (): Error => new InvalidParamsRpcError('invalid block range params')

/**
 * The verified headers the filter covers: the block a hash names, or the range — with the reference
 * daemon's rules and words (rpc/jsonrpc/eth_receipts.go): an unknown hash is `block not found: <hash>`,
 * a range starting past the head has no logs, a reversed one is `reversedRange`'s error (the
 * reference's `end (N) < begin (M)` unless told otherwise). Where its behaviour could not be
 * established from its source — a range ending past the head — geth's error is kept (`block range
 * extends beyond current head block`), as is geth's `pending logs are not supported`.
 */
export async function headersOf(
  engine: Engine,
  filter: LogFilter,
  reversedRange: (end: bigint, begin: bigint) => Error = referenceReversedRange,
): Promise<VerifiedHeader[]> {
  if (filter.blockHash !== undefined) {
    try {
      return [await engine.headers.byHash(filter.blockHash)]
    } catch (err) {
      if (err instanceof BlockNotFoundError) throw new ServerRpcError(`block not found: ${filter.blockHash.slice(2)}`)
      throw err
    }
  }
  const fromSel = filter.fromBlock ?? LATEST
  const toSel = filter.toBlock ?? LATEST
  const isPending = (s: BlockSelector) => s.kind === 'tag' && s.tag === 'pending'
  if (isPending(fromSel) || isPending(toSel)) throw new InvalidParamsRpcError('pending logs are not supported')
  const latest = await engine.headers.resolve(LATEST)
  const numberOf = async (s: BlockSelector) =>
    s.kind === 'number' ? s.number : (await engine.headers.resolve(s)).number
  const begin = await numberOf(fromSel)
  if (begin > latest.number) return []
  const end = await numberOf(toSel)
  if (end < begin) throw reversedRange(end, begin)
  if (end > latest.number) throw new InvalidParamsRpcError('block range extends beyond current head block')
  const maxBlocks = engine.options.getLogsMaxBlocks ?? GET_LOGS_MAX_BLOCKS
  if (end - begin + 1n > BigInt(maxBlocks))
    throw new InvalidParamsRpcError(
      `exceed maximum block range ${maxBlocks}: fromBlock ${begin} to toBlock ${end} is ${end - begin + 1n} blocks`,
    )
  const last = end === latest.number ? latest : await engine.headers.resolve({ kind: 'number', number: end })
  return verifiedHeaderRange(engine, begin, last)
}

/**
 * eth_getLogs(filter): every log of the covered blocks that matches, built only from receipts
 * verified against their block's receiptsRoot (and transactions against transactionsRoot). Which
 * blocks may hold one is read from each verified header's logsBloom, which has no false negatives:
 * a block it rules out has no matching log, and every block it does not is read in full. The
 * upstream's own eth_getLogs is not asked: nothing in its answer could be served unverified, and a
 * log it left out or altered must not change the answer — so no log is missing and none is forged.
 * A reversed range is the spec's `invalid block range params` (-32602), as geth answers it.
 */
export const getLogs = defineMethod({
  name: 'eth_getLogs',
  params: [required(parseLogFilter)],
  run: (engine, [filter]) => verifiedLogs(engine, filter),
})

/** eth_getLogs' answer (eth_getFilterLogs' too): the filter's logs, from verified receipts only. */
export async function verifiedLogs(engine: Engine, filter: LogFilter): Promise<BlockLog[]> {
  const headers = await headersOf(engine, filter, specReversedRange)
  const candidates = headers.filter((h) => bloomMayMatch(h.header.logsBloom, filter))
  const logs: BlockLog[] = []
  for (let start = 0; start < candidates.length; start += RECEIPT_WAVE) {
    const wave = candidates.slice(start, start + RECEIPT_WAVE)
    for (const found of await Promise.all(wave.map((h) => blockLogs(engine, h, [filter]))))
      logs.push(...found.filter((log) => logMatches(log, filter)))
  }
  return logs
}
