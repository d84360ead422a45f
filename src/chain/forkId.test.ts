import { Common, Mainnet, Sepolia } from '@ethereumjs/common'
import { hexToBytes } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { forkHash, gatherForks } from './forkId.js'

// Fork hashes recorded in geth's core/forkid/forkid_test.go (and EIP-2124) for mainnet and Sepolia.
const MAINNET_GENESIS = hexToBytes('0xd4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3')
const SEPOLIA_GENESIS = hexToBytes('0x25a5cc106eea7138acab33231d7160d69cb777ee0c2c553fcddf5138993e6dd9')
const MAX = 2n ** 64n - 1n

/** Per chain: its genesis hash and time, and [head number, head time, fork hash] as geth records them. */
const CASES = {
  mainnet: {
    common: () => new Common({ chain: Mainnet }),
    genesis: MAINNET_GENESIS,
    genesisTime: 0n,
    ids: [
      [0n, 0n, '0xfc64ec04'],
      [1_150_000n, 0n, '0x97c2c34c'],
      [1_920_000n, 0n, '0x91d1f948'],
      [7_280_000n, 0n, '0x668db0af'],
      [15_050_000n, 0n, '0xf0afd0e3'],
      [20_000_000n, 1_681_338_455n, '0xdce96c2d'],
      [30_000_000n, 1_746_612_311n, '0xc376cf8b'],
      [30_000_000n, 1_764_798_551n, '0x5167e2a6'],
      [MAX, 1_767_747_671n, '0x07c9462e'],
    ],
  },
  // Sepolia's merge netsplit block is a fork of its own.
  sepolia: {
    common: () => new Common({ chain: Sepolia }),
    genesis: SEPOLIA_GENESIS,
    genesisTime: 1_633_267_481n,
    ids: [
      [0n, 0n, '0xfe3366e7'],
      [1_735_371n, 0n, '0xb96cbd13'],
      [1_735_372n, 1_677_557_088n, '0xf7f9bc08'],
      [1_735_372n, 1_761_607_008n, '0x268956b6'],
    ],
  },
} as const

describe('EIP-2124 fork hashes', () => {
  for (const [name, chain] of Object.entries(CASES)) {
    it(name, () => {
      const forks = gatherForks(chain.common(), chain.genesisTime)
      for (const [head, time, id] of chain.ids)
        expect(forkHash(chain.genesis, forks, head, time), `${head} ${time}`).toBe(id)
    })
  }
})
