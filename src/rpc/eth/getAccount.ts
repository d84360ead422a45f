import { KECCAK256_NULL, KECCAK256_RLP, bytesToHex } from '@ethereumjs/util'
import type { Hex } from '../../types/hex.js'
import { quantity } from '../../utils/hex.js'
import { defineMethod } from '../defineMethod.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { optional, required } from '../params.js'
import { parseAddress } from '../parsers.js'
import { resolveStateBlock } from './resolveStateBlock.js'

/**
 * eth_getAccount(address, block = latest): the account as the state trie holds it, proven against
 * the block's stateRoot — in anvil's and reth's shape and order `{nonce, balance, storageRoot,
 * codeHash}`; an account that does not exist is all zeros with the empty roots, as anvil answers.
 */
export const getAccount = defineMethod({
  name: 'eth_getAccount',
  params: [required(parseAddress), optional(parseBlockParameter)],
  async run(engine, [address, selector]) {
    const block = await resolveStateBlock(engine, selector)
    const account = await engine.source.getAccount(block, address)
    return {
      nonce: quantity(account?.nonce ?? 0n),
      balance: quantity(account?.balance ?? 0n),
      storageRoot: bytesToHex(account?.storageRoot ?? KECCAK256_RLP) as Hex,
      codeHash: bytesToHex(account?.codeHash ?? KECCAK256_NULL) as Hex,
    }
  },
})
