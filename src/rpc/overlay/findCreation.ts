import { KECCAK256_NULL, equalsBytes } from '@ethereumjs/util'
import type { VerifiedHeader } from '../../chain/parseHeader.js'
import type { Engine } from '../../exec/createEngine.js'
import { type LoadedBlock, loadBlock } from '../../exec/loadBlock.js'
import { firstBlockWhere } from '../../exec/firstBlockWhere.js'
import { replayBlock } from '../../exec/replayBlock.js'
import { ServerRpcError } from '../../errors/rpc.js'
import type { CallKind } from '../../tracing/hooks.js'
import type { Deadline } from '../../types/deadline.js'
import type { Hex } from '../../types/hex.js'

export type Creation = { loaded: LoadedBlock; index: number }

/** Whether `address` has code in the verified state after `header`. */
async function hasCode(engine: Engine, header: VerifiedHeader, address: Hex): Promise<boolean> {
  const account = await engine.source.getAccount(header, address)
  return account !== undefined && !equalsBytes(account.codeHash, KECCAK256_NULL)
}

/**
 * The transaction that created the contract at `address` — without the reference daemon's index:
 * the block is found by a search over the verified code hash at block boundaries (firstBlockWhere:
 * the first block after which the account has code, assuming none in the genesis state: a genesis
 * allocation has no creating transaction), O(log n) proofs; then that block is replayed (each transaction
 * checked against its receipt) with its frames traced, and the transaction whose CREATE or CREATE2
 * frame (a factory's included) made `address` and was not rolled back is the one. A contract that
 * was destroyed and created again is found at the creation its present code follows from the
 * search's boundary, which is one of them.
 */
export async function findCreation(engine: Engine, address: Hex, deadline: Deadline): Promise<Creation> {
  if (deadline.aborted) throw deadline.reason
  const hiHeader = await firstBlockWhere(engine, (header) => hasCode(engine, header, address))
  if (!hiHeader)
    throw new ServerRpcError(`contract construction txn not found: ${address} has no code at the latest block`)
  if (deadline.aborted) throw deadline.reason
  const loaded = await loadBlock(engine, hiHeader.hash, hiHeader.number)
  let found: number | undefined
  const stack: CallKind[] = []
  await replayBlock(engine, loaded, {
    deadline,
    tracer: {
      begin: (index) => ({
        signal: deadline,
        hooks: {
          onEnter: (frame) => {
            stack.push(frame.kind)
          },
          onExit: (frame) => {
            const kind = stack.pop()
            const created = kind === 'CREATE' || kind === 'CREATE2'
            if (created && !frame.reverted && frame.error === undefined && frame.address?.toLowerCase() === address)
              found ??= index
          },
        },
      }),
      end: async () => {},
    },
  })
  if (found === undefined)
    throw new ServerRpcError(
      `contract construction txn not found: ${address} has code from block ${hiHeader.number} ${hiHeader.hash} on, and no transaction of that block creates it${hiHeader.number === 1n ? ' (a genesis allocation has no creating transaction)' : ''}`,
    )
  return { loaded, index: found }
}
