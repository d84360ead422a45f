import type { VerifiedHeader } from '../../chain/parseHeader.js'
import type { Engine } from '../../exec/createEngine.js'
import { ServerRpcError } from '../../errors/rpc.js'
import { BlockNotFoundError } from '../../errors/state.js'
import type { BlockSelector } from '../../types/blockSelector.js'

/** A verified header for a sidechain method; the reference's `unknown block` when there is none. */
export async function borHeaderAt(engine: Engine, selector: BlockSelector): Promise<VerifiedHeader> {
  try {
    return await engine.headers.resolve(selector)
  } catch (err) {
    if (err instanceof BlockNotFoundError) throw new ServerRpcError('unknown block', { cause: err })
    throw err
  }
}
