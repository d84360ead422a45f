import { KECCAK256_NULL, bytesToHex } from '@ethereumjs/util'
import { defineMethod } from '../defineMethod.js'
import { resolveStateBlock } from '../eth/resolveStateBlock.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { required } from '../params.js'
import { parseAddress } from '../parsers.js'

const EMPTY_CODE_HASH = bytesToHex(KECCAK256_NULL)

/**
 * ots_hasCode(address, block): whether the account has code at the START of the block — the
 * reference reads the state before the block's first transaction (CreateHistoryStateReader(block, 0)),
 * which is the state its parent left: so a contract created in block N has no code at N, and code
 * from N + 1 on. Read from the parent's verified state (the genesis block: its own).
 */
export const hasCode = defineMethod({
  name: 'ots_hasCode',
  params: [required(parseAddress), required(parseBlockParameter)],
  async run(engine, [address, selector]): Promise<boolean> {
    const block = await resolveStateBlock(engine, selector)
    const at = block.number === 0n ? block : await engine.headers.byHash(bytesToHex(block.header.parentHash))
    const account = await engine.source.getAccount(at, address)
    return account !== undefined && bytesToHex(account.codeHash) !== EMPTY_CODE_HASH
  },
})
