import { describe, expect, it } from 'vitest'
import { createChainRules } from '../createChainRules.js'

describe('Bor chain rules', () => {
  const mainnet = createChainRules({ chainId: 137n })
  const amoy = createChainRules({ chainId: 80002n })

  it('knows Polygon PoS mainnet and Amoy by chain id', () => {
    expect(mainnet.source).toBe('Polygon PoS mainnet (chain id 137)')
    expect(amoy.source).toBe('Polygon PoS Amoy (chain id 80002)')
    expect(mainnet.bor?.spec.chainId).toBe(137)
    expect(createChainRules({ chainId: 1n }).bor).toBeUndefined()
    // --hardfork keeps its meaning: one fork for every block, no Bor rules.
    expect(createChainRules({ chainId: 137n, hardfork: 'london' }).bor).toBeUndefined()
  })

  it('maps the forks by block number, without what belongs to the beacon chain', () => {
    const at = (n: number) => mainnet.commonFor(BigInt(n), 0n)
    expect(at(23_849_999).hardfork()).toBe('berlin')
    expect(at(23_850_000).hardfork()).toBe('london')
    // Agra: Shanghai's opcodes, no withdrawals.
    expect(at(50_523_000).hardfork()).toBe('shanghai')
    expect(at(50_523_000).isActivatedEIP(3855)).toBe(true)
    expect(at(50_523_000).isActivatedEIP(4895)).toBe(false)
    // Napoli: transient storage and MCOPY, no blobs and no beacon root (its headers have neither).
    const napoli = at(54_876_000)
    expect(napoli.hardfork()).toBe('cancun')
    expect([1153, 5656, 6780].map((e) => napoli.isActivatedEIP(e))).toEqual([true, true, true])
    expect([4844, 4788, 4895].map((e) => napoli.isActivatedEIP(e))).toEqual([false, false, false])
    // Bhilai: set-code transactions, BLS, the history contract; no execution-layer requests.
    const bhilai = at(73_440_256)
    expect(bhilai.hardfork()).toBe('prague')
    expect([7702, 2537, 2935, 7623].map((e) => bhilai.isActivatedEIP(e))).toEqual([true, true, true, true])
    expect([7685, 6110, 7002, 7251].map((e) => bhilai.isActivatedEIP(e))).toEqual([false, false, false, false])
    // Bor never merged: DIFFICULTY is the header's difficulty (no EIP-4399).
    expect(bhilai.isActivatedEIP(4399)).toBe(false)
    expect(amoy.commonFor(5_423_600n, 0n).hardfork()).toBe('cancun')
  })

  it('sprints, Jaipur, Napoli and where the base fee goes, by block', () => {
    const bor = mainnet.bor!
    expect(bor.sprintSize(38_189_055n)).toBe(64n)
    expect(bor.sprintSize(38_189_056n)).toBe(16n)
    expect([bor.isJaipur(23_849_999n), bor.isJaipur(23_850_000n)]).toEqual([false, true])
    expect([bor.isNapoli(54_875_999n), bor.isNapoli(54_876_000n)]).toEqual([false, true])
    expect(bor.burntContract(1n)).toBeUndefined()
    expect(bor.burntContract(23_850_000n)).toBe('0x70bca57f4579f58670ab2d18ef16e02c17553c38')
    expect(bor.burntContract(60_000_000n)).toBe('0x7a8ed27f4c30512326878652d20fc85727401854')
    expect(amoy.bor!.sprintSize(0n)).toBe(16n)
  })

  it('a geth-style genesis with a bor section is a Bor chain of its own', () => {
    const genesis = {
      config: {
        chainId: 4242,
        londonBlock: 0,
        shanghaiBlock: 0,
        cancunBlock: 10,
        bor: { period: { '0': 2 }, sprint: { '0': 8 }, jaipurBlock: 0, delhiBlock: 0, indoreBlock: 0 },
      },
      alloc: {},
    }
    const rules = createChainRules({ chainId: 4242n, genesis: genesis as never })
    expect(rules.source).toBe('Bor genesis config (chain id 4242)')
    expect(rules.bor!.sprintSize(100n)).toBe(8n)
    expect(rules.commonFor(9n, 0n).hardfork()).toBe('shanghai')
    expect(rules.commonFor(10n, 0n).hardfork()).toBe('cancun')
    expect(() => createChainRules({ chainId: 1n, genesis: genesis as never })).toThrow(
      '--chain file is for chain id 4242, but the upstream is chain 1',
    )
    expect(() =>
      createChainRules({
        chainId: 4242n,
        genesis: { ...genesis, config: { ...genesis.config, bor: { period: {} } } } as never,
      }),
    ).toThrow('--chain: config.bor.sprint is missing')
  })
})
