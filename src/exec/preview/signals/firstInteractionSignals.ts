import type { VerifiedHeader } from '../../../chain/parseHeader.js'
import type { Hex } from '../../../types/hex.js'
import type { Engine } from '../../createEngine.js'
import { fetchVerifiedBlock } from '../../fetchVerifiedBlock.js'
import { codeKindOf } from './spenderSignals.js'
import type { PreviewSignal } from './spenderSignals.js'

/** Default look-back, blocks (about 6 minutes on mainnet: bodies are fetched only when the account sent in it). */
export const FIRST_INTERACTION_BLOCKS = 32

/** The window's first block: `blocks` blocks up to and with the block, from block 1 at most. */
const windowStart = (block: VerifiedHeader, blocks: number) =>
  block.number - BigInt(blocks) + 1n < 1n ? 1n : block.number - BigInt(blocks) + 1n

/**
 * What firstInteractionSignals reads first, fetched ahead (as soon as the block is known, beside a
 * preview's own rounds): the window's headers by the block's parent links, then the account's proof
 * at the window's start. Its errors are left to firstInteractionSignals, which reads the same again.
 */
export async function prefetchFirstInteraction(
  engine: Engine,
  block: VerifiedHeader,
  account: Hex,
  blocks = FIRST_INTERACTION_BLOCKS,
): Promise<void> {
  const fromNumber = windowStart(block, blocks)
  if (blocks <= 0 || fromNumber <= 1n) return
  await engine.source.getAccount(await engine.headers.ancestor(block, fromNumber - 1n), account).catch(() => {})
}

/**
 * `firstInteraction`: the calls' targets that are contracts on the block and that the account sent
 * no transaction to in the last `blocks` blocks (up to and with the block). The account's proven
 * nonce at the window's start and at the block says whether it sent anything in it: unchanged, no
 * block is fetched (2 round trips: the window's headers, by the block's parent links, and a proof; none
 * once known); else the window's verified bodies are read
 * for transactions from the account to the target. Only top-level transactions count (a contract
 * reached through another, or through a smart account's bundler, is not seen), and only in the window:
 * `window: {from, to}` says which blocks were looked at.
 */
export async function firstInteractionSignals(
  engine: Engine,
  block: VerifiedHeader,
  account: Hex,
  targets: readonly Hex[],
  blocks = FIRST_INTERACTION_BLOCKS,
): Promise<PreviewSignal[]> {
  const wanted = [...new Set(targets.map((t) => t.toLowerCase() as Hex))]
  if (blocks <= 0 || wanted.length === 0) return []
  const fromNumber = windowStart(block, blocks)
  // The window's blocks by the block's parent links (its headers fetched in one batch, then known):
  // proven the block's ancestors, and asked of no one again. Asked beside the targets' code (one
  // round, not two; the headers unused where no target is a contract).
  const start = fromNumber > 1n ? engine.headers.ancestor(block, fromNumber - 1n) : undefined
  start?.catch(() => {})
  const kinds = await Promise.all(wanted.map((t) => codeKindOf(engine, block, t)))
  const contracts = wanted.filter((_, i) => kinds[i]!.kind === 'contract')
  if (contracts.length === 0) return []
  const before = await start
  const [then, now] = await Promise.all([
    before ? engine.source.getAccount(before, account) : undefined,
    engine.source.getAccount(block, account),
  ])
  const seen = new Set<string>()
  if ((then?.nonce ?? 0n) !== (now?.nonce ?? 0n)) {
    const numbers = Array.from({ length: Number(block.number - fromNumber + 1n) }, (_, i) => fromNumber + BigInt(i))
    const bodies = await Promise.all(
      numbers.map(async (number) => {
        const header = await engine.headers.ancestor(block, number)
        return fetchVerifiedBlock(engine, header)
      }),
    )
    for (const { block: b } of bodies) {
      for (const tx of b.transactions) {
        if (tx.getSenderAddress().toString().toLowerCase() === account.toLowerCase() && tx.to) {
          seen.add(tx.to.toString().toLowerCase())
        }
      }
    }
  }
  const window = { from: fromNumber, to: block.number }
  return contracts
    .filter((c) => !seen.has(c))
    .map((contract) => ({ kind: 'firstInteraction', severity: 'info', contract, window }))
}
