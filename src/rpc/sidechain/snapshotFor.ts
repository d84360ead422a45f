import type { BorSnapshot } from '../../chain/bor/applyBorHeaders.js'
import type { VerifiedHeader } from '../../chain/parseHeader.js'
import type { Engine } from '../../exec/createEngine.js'
import type { BlockSelector } from '../../types/blockSelector.js'
import type { CallContext } from '../../types/progress.js'
import { borHeaderAt } from './borHeaderAt.js'
import { borSnapshotAt } from './borSnapshotAt.js'

const LATEST: BlockSelector = { kind: 'tag', tag: 'latest' }

/**
 * The verified header a sidechain argument selects (latest when absent) and the snapshot after it;
 * `context` is the request's (a walk's stretches on the range workers end with it).
 */
export async function snapshotFor(
  engine: Engine,
  selector: BlockSelector | undefined,
  context?: CallContext,
): Promise<{ header: VerifiedHeader; snapshot: BorSnapshot }> {
  const header = await borHeaderAt(engine, selector ?? LATEST)
  return { header, snapshot: await borSnapshotAt(engine, header, context) }
}

/**
 * The snapshot a block was sealed under: its parent's (bor's GetSnapshotProposer*: number − 1). The
 * reference asks for rpc.BlockNumber(number − 1), and −1 is Erigon's "latest": block 0 gets the head's.
 */
export async function parentSnapshotFor(
  engine: Engine,
  selector: BlockSelector | undefined,
  context?: CallContext,
): Promise<{ header: VerifiedHeader; snapshot: BorSnapshot }> {
  const header = await borHeaderAt(engine, selector ?? LATEST)
  const parent = header.number === 0n ? LATEST : ({ kind: 'number', number: header.number - 1n } as const)
  const { snapshot } = await snapshotFor(engine, parent, context)
  return { header, snapshot }
}
