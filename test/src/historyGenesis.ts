// A chain for history tests and benches (see FixtureChain.mineEmptyBlocks).

import { MERGED_AT_GENESIS } from './mergedAtGenesis.js'

/** Prague from genesis, with the EIP-2935 history contract (its code as deployed on mainnet). */
export const HISTORY_GENESIS = {
  config: {
    chainId: 1337,
    ...MERGED_AT_GENESIS,
    cancunTime: 0,
    pragueTime: 0,
  },
  gasLimit: '0x1c9c380',
  difficulty: '0x0',
  baseFeePerGas: '0x3b9aca00',
  timestamp: '0x0',
  extraData: '0x',
  alloc: {
    '0x0000f90827f1c53a10cb7a02335b175320002935': {
      balance: '0x0',
      nonce: '0x1',
      code: '0x3373fffffffffffffffffffffffffffffffffffffffe14604657602036036042575f35600143038111604257611fff81430311604257611fff9006545f5260205ff35b5f5ffd5b5f35611fff60014303065500',
    },
  },
}
