import { KECCAK256_NULL, bytesToHex, createAddressFromString, equalsBytes } from '@ethereumjs/util'
import { stateBefore } from '../../exec/stateBefore.js'
import { BlockNotFoundError } from '../../errors/state.js'
import { quantity } from '../../utils/hex.js'
import { parseAddress, parseHash } from '../parsers.js'
import { ParamError, required } from '../params.js'
import { defineMethod } from '../defineMethod.js'

/** A plain JSON number (Go `uint64`/`int` arguments take no hex strings; reference §0). */
export function parseJsonInteger(raw: unknown): number {
  if (typeof raw !== 'number' || !Number.isSafeInteger(raw) || raw < 0) {
    throw new ParamError(
      `json: cannot unmarshal ${typeof raw === 'string' ? 'string' : JSON.stringify(raw)} into Go value of type uint64`,
    )
  }
  return raw
}

const ZERO_HASH = `0x${'0'.repeat(64)}`

/**
 * debug_accountAt(blockHash, txIndex, address): the account as transaction `txIndex` of the block
 * sees it — the block's earlier transactions replayed on verified state. `{balance, nonce, code,
 * codeHash}`; an account that does not exist is all zeros (Erigon); an unknown block is null.
 */
export const accountAt = defineMethod({
  name: 'debug_accountAt',
  params: [required(parseHash), required(parseJsonInteger), required(parseAddress)],
  async run(engine, [hash, txIndex, address]): Promise<unknown> {
    let state
    try {
      state = await stateBefore(engine, await engine.headers.byHash(hash), txIndex)
    } catch (err) {
      // An unknown block is null (Erigon); an index past its end is an error.
      if (err instanceof BlockNotFoundError) return null
      throw err
    }
    const at = createAddressFromString(address)
    const account = await state.getAccount(at)
    if (!account) return { balance: '0x0', nonce: '0x0', code: '0x', codeHash: ZERO_HASH }
    const code = equalsBytes(account.codeHash, KECCAK256_NULL) ? new Uint8Array(0) : await state.getCode(at)
    return {
      balance: quantity(account.balance),
      nonce: quantity(account.nonce),
      code: bytesToHex(code),
      codeHash: bytesToHex(account.codeHash),
    }
  },
})
