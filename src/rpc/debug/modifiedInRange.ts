import { bytesToBigInt, createAddressFromString, equalsBytes } from '@ethereumjs/util'
import type { VerifiedHeader } from '../../chain/parseHeader.js'
import { BEACON_ROOTS_ADDRESS, HISTORY_STORAGE_ADDRESS } from '../../exec/applySystemCalls.js'
import type { Engine } from '../../exec/createEngine.js'
import type { LoadedBlock } from '../../exec/loadBlock.js'
import { runTrace } from '../../exec/runTrace.js'
import type { OverlayStateManager } from '../../state/createOverlayStateManager.js'
import type { TxTraceSession } from '../../tracing/startTxTrace.js'
import type { CallContext } from '../../types/progress.js'
import { SILENT_CONTEXT } from '../progress.js'
import { ServerRpcError } from '../../errors/rpc.js'
import { collectStateAccess } from '../../tracing/state/collectStateAccess.js'
import { fanOutRange, rangeWorkersFor } from '../fanOutRange.js'

/** The most blocks one debug_getModifiedAccounts* request may replay. */
export const MODIFIED_ACCOUNTS_MAX_BLOCKS = 1000

const NEVER = { aborted: false } as const

/** Adds the accounts whose state a transaction changed: existence, balance, nonce, code or any slot. */
async function addChangedBy(state: OverlayStateManager, out: Set<string>): Promise<void> {
  const access = await collectStateAccess(state)
  for (const [address, pre] of access.pre) {
    const post = access.post.get(address)
    const changed =
      pre.exists !== (post?.exists ?? false) ||
      (post !== undefined &&
        (pre.balance !== post.balance ||
          pre.nonce !== post.nonce ||
          !equalsBytes(pre.codeHash, post.codeHash) ||
          [...pre.storage].some(
            ([slot, v]) => bytesToBigInt(v) !== bytesToBigInt(post.storage.get(slot) ?? new Uint8Array(0)),
          )))
    if (changed) out.add(address)
  }
}

/**
 * Adds the accounts a block changed outside its transactions: its system contracts' (EIP-4788,
 * EIP-2935, when they have code after it), its proof-of-work rewards' recipients and its
 * withdrawals' (amount > 0).
 */
async function addChangedAround(engine: Engine, loaded: LoadedBlock, state: OverlayStateManager, out: Set<string>) {
  const header = loaded.header.header
  const common = loaded.header.common
  for (const [address, eip] of [
    [BEACON_ROOTS_ADDRESS, 4788],
    [HISTORY_STORAGE_ADDRESS, 2935],
  ] as const) {
    if (common.isActivatedEIP(eip) && (await state.getCode(createAddressFromString(address))).length > 0)
      out.add(address)
  }
  if (header.difficulty > 0n && !common.gteHardfork('paris')) {
    out.add(header.coinbase.toString())
    // Uncle authors are rewarded too; their headers are listed by hash only, so ask for them.
    const uncles = await engine.upstream.request<{ uncles?: string[] } | null>('eth_getBlockByHash', [
      loaded.header.hash,
      false,
    ])
    for (let i = 0; i < (uncles?.uncles?.length ?? 0); i++) {
      const uncle = await engine.upstream.request<{ miner: string } | null>('eth_getUncleByBlockHashAndIndex', [
        loaded.header.hash,
        `0x${i.toString(16)}`,
      ])
      if (uncle) out.add(uncle.miner.toLowerCase())
    }
  }
  for (const w of loaded.block.withdrawals ?? []) if (w.amount > 0n) out.add(w.address.toString())
}

/**
 * The accounts whose state blocks `from`…`to` changed, both included, sorted (null when none): each
 * block's transactions replayed on verified state through runTrace (a session with no hooks that
 * compares each transaction's reads and writes), then what the block changed around them.
 */
export async function modifiedInRange(
  engine: Engine,
  from: VerifiedHeader,
  to: VerifiedHeader,
  context: CallContext = SILENT_CONTEXT,
): Promise<string[] | null> {
  const out = new Set<string>()
  // A long range is cut into stretches computed by the worker threads; the sets are joined here.
  const workers = rangeWorkersFor(engine, to.number - from.number + 1n)
  if (workers) {
    await fanOutRange({
      workers,
      engine,
      from: from.number,
      to: to.number,
      request: (a, b) => ({ method: 'debug_getModifiedAccountsByNumber', params: [a, b] }),
      onChunk: (chunk, last) => {
        for (const address of (chunk.value() as string[] | null) ?? []) out.add(address)
        context.progress({
          done: Number(last - from.number + 1n),
          total: Number(to.number - from.number + 1n),
          unit: 'blocks',
        })
        return true
      },
      deadline: context.deadline,
    })
    return out.size === 0 ? null : [...out].sort()
  }
  const start = (): TxTraceSession => ({
    hooks: {},
    signal: NEVER,
    finish: async (_result, state) => addChangedBy(state, out),
    abort: async () => false,
  })
  const afterBlock = async (_n: bigint, loaded: LoadedBlock | undefined, state: OverlayStateManager | undefined) => {
    if (loaded && state) await addChangedAround(engine, loaded, state, out)
    return true
  }
  await runTrace(
    engine,
    { kind: 'blocks', from, to, afterBlock },
    { start, done: () => {} },
    { deadline: context.deadline },
  )
  return out.size === 0 ? null : [...out].map((a) => a.toLowerCase()).sort()
}

export function checkRange(from: VerifiedHeader, to: VerifiedHeader) {
  if (from.number > to.number)
    throw new ServerRpcError(`start block (${from.number}) must be less than or equal to end block (${to.number})`)
  if (to.number - from.number + 1n > BigInt(MODIFIED_ACCOUNTS_MAX_BLOCKS)) {
    throw new ServerRpcError(
      `the range covers ${to.number - from.number + 1n} blocks; at most ${MODIFIED_ACCOUNTS_MAX_BLOCKS} may be asked at once`,
    )
  }
}
