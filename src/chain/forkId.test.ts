import { Common, Mainnet, Sepolia } from '@ethereumjs/common'
import { hexToBytes } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { forkHash, gatherForks } from './forkId.js'

// Fork hashes recorded in geth's core/forkid/forkid_test.go (and EIP-2124) for mainnet and Sepolia.
const MAINNET_GENESIS = hexToBytes('0xd4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3')
const SEPOLIA_GENESIS = hexToBytes('0x25a5cc106eea7138acab33231d7160d69cb777ee0c2c553fcddf5138993e6dd9')
const MAX = 2n ** 64n - 1n

describe('EIP-2124 fork hashes', () => {
  it('mainnet, from Frontier to BPO2', () => {
    const forks = gatherForks(new Common({ chain: Mainnet }), 0n)
    const at = (head: bigint, time: bigint) => forkHash(MAINNET_GENESIS, forks, head, time)
    expect(at(0n, 0n)).toBe('0xfc64ec04')
    expect(at(1_150_000n, 0n)).toBe('0x97c2c34c')
    expect(at(1_920_000n, 0n)).toBe('0x91d1f948')
    expect(at(7_280_000n, 0n)).toBe('0x668db0af')
    expect(at(15_050_000n, 0n)).toBe('0xf0afd0e3')
    expect(at(20_000_000n, 1_681_338_455n)).toBe('0xdce96c2d')
    expect(at(30_000_000n, 1_746_612_311n)).toBe('0xc376cf8b')
    expect(at(30_000_000n, 1_764_798_551n)).toBe('0x5167e2a6')
    expect(at(MAX, 1_767_747_671n)).toBe('0x07c9462e')
  })

  it('Sepolia, whose merge netsplit block is a fork', () => {
    const forks = gatherForks(new Common({ chain: Sepolia }), 1_633_267_481n)
    const at = (head: bigint, time: bigint) => forkHash(SEPOLIA_GENESIS, forks, head, time)
    expect(at(0n, 0n)).toBe('0xfe3366e7')
    expect(at(1_735_371n, 0n)).toBe('0xb96cbd13')
    expect(at(1_735_372n, 1_677_557_088n)).toBe('0xf7f9bc08')
    expect(at(1_735_372n, 1_761_607_008n)).toBe('0x268956b6')
  })
})
