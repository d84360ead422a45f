import { bytes, quantity } from '../../utils/hex.js'
import { defineMethod } from '../defineMethod.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { optional, required } from '../params.js'
import { parseAddress } from '../parsers.js'
import { resolveStateBlock } from './resolveStateBlock.js'

/**
 * eth_getAccountInfo(address, block = latest): `{balance, nonce, code}` as anvil and reth answer it
 * (foundry loads accounts with it) — the balance and nonce proven against the block's stateRoot, the
 * code checked against the proven codeHash; one block for all three.
 */
export const getAccountInfo = defineMethod({
  name: 'eth_getAccountInfo',
  params: [required(parseAddress), optional(parseBlockParameter)],
  async run(engine, [address, selector]) {
    const block = await resolveStateBlock(engine, selector)
    const [account, code] = await Promise.all([
      engine.source.getAccount(block, address),
      engine.source.getCode(block, address),
    ])
    return { balance: quantity(account?.balance ?? 0n), nonce: quantity(account?.nonce ?? 0n), code: bytes(code) }
  },
})
