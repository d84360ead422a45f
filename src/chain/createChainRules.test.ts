import { describe, expect, it } from 'vitest'
import { UnknownChainError, createChainRules } from './createChainRules.js'

describe('createChainRules', () => {
  it('takes mainnet forks from block number and timestamp', () => {
    const rules = createChainRules({ chainId: 1n })
    expect(rules.commonFor(1_000_000n, 1_455_000_000n).hardfork()).toBe('chainstart')
    expect(rules.commonFor(1_200_000n, 1_458_000_000n).hardfork()).toBe('homestead')
    expect(rules.commonFor(12_965_000n, 1_628_166_822n).hardfork()).toBe('london')
    expect(rules.commonFor(15_537_394n, 1_663_224_179n).hardfork()).toBe('paris')
    expect(rules.commonFor(17_034_870n, 1_681_338_455n).hardfork()).toBe('shanghai')
    expect(rules.commonFor(19_426_587n, 1_710_338_135n).hardfork()).toBe('cancun')
    expect(rules.commonFor(22_431_084n, 1_746_612_311n).hardfork()).toBe('prague')
    expect(rules.source).toContain('mainnet')
  })

  it('knows sepolia, holesky and hoodi by chain id', () => {
    for (const id of [11155111n, 17000n, 560048n]) expect(createChainRules({ chainId: id }).chainId).toBe(id)
  })

  it('applies one hardfork to every block with --hardfork', () => {
    const rules = createChainRules({ chainId: 31337n, hardfork: 'cancun' })
    expect(rules.commonFor(0n, 0n).hardfork()).toBe('cancun')
    expect(rules.commonFor(10_000n, 2_000_000_000n).hardfork()).toBe('cancun')
    expect(rules.commonFor(1n, 1n).chainId()).toBe(31337n)
    expect(() => createChainRules({ chainId: 31337n, hardfork: 'atlantis' })).toThrow('unknown hardfork "atlantis"')
  })

  it('reads the forks of a geth-style genesis with --chain', () => {
    const genesis = {
      config: {
        chainId: 424242,
        homesteadBlock: 0,
        eip150Block: 0,
        eip155Block: 0,
        eip158Block: 0,
        byzantiumBlock: 0,
        constantinopleBlock: 0,
        petersburgBlock: 0,
        istanbulBlock: 0,
        berlinBlock: 0,
        londonBlock: 0,
        mergeNetsplitBlock: 0,
        terminalTotalDifficulty: 0,
        shanghaiTime: 0,
        cancunTime: 1000,
        pragueTime: 2000,
      },
      alloc: {},
      difficulty: '0x0',
      gasLimit: '0x1c9c380',
      extraData: '0x',
      nonce: '0x0',
      timestamp: '0x0',
      coinbase: '0x0000000000000000000000000000000000000000',
      mixHash: `0x${'0'.repeat(64)}`,
      parentHash: `0x${'0'.repeat(64)}`,
    }
    const rules = createChainRules({ chainId: 424242n, genesis: genesis as never })
    expect(rules.commonFor(5n, 500n).hardfork()).toBe('shanghai')
    expect(rules.commonFor(50n, 1500n).hardfork()).toBe('cancun')
    expect(rules.commonFor(90n, 2500n).hardfork()).toBe('prague')
    expect(() => createChainRules({ chainId: 1n, genesis: genesis as never })).toThrow(
      '--chain file is for chain id 424242',
    )
  })

  it('refuses an unknown chain with neither, saying what to pass', () => {
    expect(() => createChainRules({ chainId: 31337n })).toThrow(UnknownChainError)
    expect(() => createChainRules({ chainId: 31337n })).toThrow(
      'pass --chain <geth-style genesis file> or --hardfork <name>',
    )
  })
})
