import type { VerifiedHeader } from '../../chain/parseHeader.js'
import type { Engine } from '../../exec/createEngine.js'
import { ServerRpcError } from '../../errors/rpc.js'
import { BlockNotFoundError } from '../../errors/state.js'
import type { BlockSelector } from '../../types/blockSelector.js'

const LATEST: BlockSelector = { kind: 'tag', tag: 'latest' }

/**
 * The verified header a state read is answered at (absent, as the reference daemon's blockOrLatest:
 * `latest`; `pending` is `latest`). A block
 * the upstream does not know is geth's error: `header for hash not found` asked by hash, `header not
 * found` otherwise.
 */
export async function resolveStateBlock(engine: Engine, selector: BlockSelector | undefined): Promise<VerifiedHeader> {
  const block = selector ?? LATEST
  try {
    return await engine.headers.resolve(block)
  } catch (err) {
    if (err instanceof BlockNotFoundError)
      throw new ServerRpcError(block.kind === 'hash' ? 'header for hash not found' : 'header not found')
    throw err
  }
}
