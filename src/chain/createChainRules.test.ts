import { createBlockHeader, paramsBlock } from '@ethereumjs/block'
import { describe, expect, it } from 'vitest'
import { MERGED_AT_GENESIS } from '../../test/src/mergedAtGenesis.js'
import { UnknownChainError, createChainRules } from './createChainRules.js'
import { requestContracts } from './requestContracts.js'

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
    expect(() => createChainRules({ chainId: 31337n, hardfork: 'atlantis' })).toThrow(
      '--hardfork atlantis: no such hardfork. The forks it runs: chainstart,',
    )
    // A fork ethereumjs lists but edgetrace cannot execute (its headers would never verify).
    expect(() => createChainRules({ chainId: 31337n, hardfork: 'amsterdam' })).toThrow(
      '--hardfork amsterdam: edgetrace cannot execute it yet',
    )
  })

  it('reads the forks of a geth-style genesis with --chain', () => {
    const genesis = {
      config: {
        chainId: 424242,
        ...MERGED_AT_GENESIS,
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

  const postMerge = (config: Record<string, unknown>) => ({
    config: {
      chainId: 424242,
      ...MERGED_AT_GENESIS,
      ...config,
    },
    alloc: {},
    difficulty: '0x0',
    gasLimit: '0x1c9c380',
  })

  // A devnet's own BPO schedule: every fork's values differ from mainnet's.
  const customBpo = postMerge({
    cancunTime: 0,
    pragueTime: 0,
    osakaTime: 0,
    bpo1Time: 100,
    bpo2Time: 200,
    bpo3Time: 300,
    bpo4Time: '0x190',
    bpo5Time: 500,
    blobSchedule: {
      cancun: { target: 3, max: 6, baseFeeUpdateFraction: 3338477 },
      prague: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 },
      osaka: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 },
      bpo1: { target: 1, max: 2, baseFeeUpdateFraction: 1_000_000 },
      bpo2: { target: 2, max: 4, baseFeeUpdateFraction: 300_000 },
      bpo3: { target: 12, max: 16, baseFeeUpdateFraction: 13_000_000 },
      bpo4: { target: 20, max: 30, baseFeeUpdateFraction: 20_000_000 },
      bpo5: { target: 0, max: 1, baseFeeUpdateFraction: 7 },
    },
  })

  /** geth's fakeExponential (consensus/misc/eip4844), worked out here independently of ethereumjs. */
  function fakeExponential(factor: bigint, numerator: bigint, denominator: bigint): bigint {
    let output = 0n
    let accum = factor * denominator
    for (let i = 1n; accum > 0n; i++) {
      output += accum
      accum = (accum * numerator) / denominator / i
    }
    return output / denominator
  }

  it('gives each fork of a custom blobSchedule (bpo1 … bpo5) its own target, max and update fraction', () => {
    const rules = createChainRules({ chainId: 424242n, genesis: customBpo as never })
    const at = (t: bigint) => {
      const common = rules.commonFor(10n, t)
      common.updateParams(paramsBlock)
      return common
    }
    const expected: [bigint, string, number, number, number][] = [
      [50n, 'osaka', 6, 9, 5007716],
      [100n, 'bpo1', 1, 2, 1_000_000],
      [250n, 'bpo2', 2, 4, 300_000],
      [399n, 'bpo3', 12, 16, 13_000_000],
      [400n, 'bpo4', 20, 30, 20_000_000],
      [10_000n, 'bpo5', 0, 1, 7],
    ]
    for (const [time, fork, target, max, fraction] of expected) {
      const common = at(time)
      expect(common.hardfork()).toBe(fork)
      expect(common.getBlobGasSchedule()).toEqual({
        targetBlobGasPerBlock: BigInt(target) * 131072n,
        maxBlobGasPerBlock: BigInt(max) * 131072n,
        blobGasPriceUpdateFraction: BigInt(fraction),
      })
    }
  })

  it("computes a header's blob base fee and its child's excess blob gas by the custom schedule, as geth's formula does", () => {
    const rules = createChainRules({ chainId: 424242n, genesis: customBpo as never })
    const common = rules.commonFor(10n, 250n) // bpo2: target 2, max 4, fraction 300000
    const excessBlobGas = 5n * 131072n
    const header = createBlockHeader(
      { number: 10n, timestamp: 250n, baseFeePerGas: 7n, excessBlobGas, blobGasUsed: 4n * 131072n },
      { common, skipConsensusFormatValidation: true },
    )
    // geth: CalcBlobFee = fakeExponential(1, excess, bpo2's 300000) — e^(655360/300000) ≈ 8.9
    const fee = fakeExponential(1n, excessBlobGas, 300_000n)
    expect(fee).toBe(8n)
    expect(header.getBlobGasPrice()).toBe(fee)
    // geth's calcExcessBlobGas (Osaka rules, EIP-7918): the reserve price 2^13 × 7 wei is below the blob
    // price 131072 × 8, so the plain EIP-4844 rule: excess + used − target.
    expect(8192n * 7n < 131072n * fee).toBe(true)
    const child = rules.commonFor(11n, 262n)
    child.updateParams(paramsBlock)
    const bpo3 = rules.commonFor(11n, 300n)
    bpo3.updateParams(paramsBlock)
    expect(header.calcNextExcessBlobGas(child)).toBe(excessBlobGas + 4n * 131072n - 2n * 131072n)
    // Across the bpo2 → bpo3 boundary the child's schedule applies (target 12 blobs): no excess left.
    expect(header.calcNextExcessBlobGas(bpo3)).toBe(0n)
    // With a high base fee the reserve price wins: excess + used × (max − target) / max.
    const pricey = createBlockHeader(
      { number: 10n, timestamp: 250n, baseFeePerGas: 10n ** 9n, excessBlobGas, blobGasUsed: 4n * 131072n },
      { common, skipConsensusFormatValidation: true },
    )
    expect(pricey.calcNextExcessBlobGas(child)).toBe(excessBlobGas + (4n * 131072n * (4n - 2n)) / 4n)
  })

  it('reads every fork field geth knows, and ignores the ones that do not change execution', () => {
    const rules = createChainRules({
      chainId: 424242n,
      genesis: postMerge({
        daoForkBlock: 0,
        daoForkSupport: false,
        muirGlacierBlock: 0,
        arrowGlacierBlock: 0,
        grayGlacierBlock: 0,
        cancunTime: 10,
        pragueTime: 20,
        osakaTime: 30,
        bpo1Time: 40,
        bpo2Time: 50,
        depositContractAddress: '0x00000000219ab540356cBB839Cbe05303d7705Fa',
        terminalTotalDifficultyPassed: true,
        ethash: {},
        clique: { period: 5, epoch: 30000 },
        eip150Hash: `0x${'0'.repeat(64)}`,
        blobSchedule: {
          cancun: { target: 3, max: 6, baseFeeUpdateFraction: 3338477 },
          prague: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 },
        },
      }) as never,
    })
    expect(
      ['shanghai', 'cancun', 'prague', 'osaka', 'bpo1', 'bpo2'].map((_, i) =>
        rules.commonFor(1n, BigInt(i * 10 + 5)).hardfork(),
      ),
    ).toEqual(['shanghai', 'cancun', 'prague', 'osaka', 'bpo1', 'bpo2'])
    // bpo1 and bpo2 without entries keep ethereumjs' built-in (mainnet) values.
    const bpo2 = rules.commonFor(1n, 55n)
    bpo2.updateParams(paramsBlock)
    expect(bpo2.getBlobGasSchedule().maxBlobGasPerBlock).toBe(21n * 131072n)
    // Besu's constantinopleFixBlock is its name for petersburgBlock.
    const besu = createChainRules({
      chainId: 7n,
      genesis: {
        config: { chainId: 7, constantinopleBlock: 0, constantinopleFixBlock: 5 },
        alloc: {},
        difficulty: '0x1',
        gasLimit: '0x1000000',
      } as never,
    })
    expect(besu.commonFor(4n, 0n).hardfork()).toBe('constantinople')
    expect(besu.commonFor(5n, 0n).hardfork()).toBe('petersburg')
    // Besu's (and hive's) frontierBlock: 0 is accepted (Frontier starts there), any other is refused.
    const frontier = (at: number) =>
      createChainRules({
        chainId: 7n,
        genesis: {
          config: { chainId: 7, frontierBlock: at, homesteadBlock: 3 },
          alloc: {},
          difficulty: '0x1',
          gasLimit: '0x1000000',
        } as never,
      })
    expect(frontier(0).commonFor(2n, 0n).hardfork()).toBe('chainstart')
    expect(() => frontier(5)).toThrow('genesis config.frontierBlock: Frontier starts at block 0')
    // daoForkSupport false: no DAO fork (geth moves the DAO's balances only on a supporting chain).
    expect(
      rules
        .commonFor(1n, 5n)
        .hardforks()
        .some((h) => h.name === 'dao'),
    ).toBe(false)
  })

  it("loads Besu's Hoodi genesis (its preMergeForkBlock, discovery, depositContractAddress), warning once of the fields it ignores", () => {
    // The config of hyperledger/besu config/src/main/resources/hoodi.json (bootnodes shortened), which
    // geth loads (its JSON decoder skips unknown fields) and edgetrace refused for "preMergeForkBlock".
    const hoodi = {
      config: {
        chainId: 560048,
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
        preMergeForkBlock: 0,
        terminalTotalDifficulty: 0,
        ethash: {},
        shanghaiTime: 0,
        cancunTime: 0,
        pragueTime: 1742999832,
        blobSchedule: {
          cancun: { target: 3, max: 6, baseFeeUpdateFraction: 3338477 },
          prague: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 },
        },
        depositContractAddress: '0x00000000219ab540356cBB839Cbe05303d7705Fa',
        discovery: { bootnodes: ['enode://2112dd38…@134.209.138.84:30303'] },
      },
      alloc: {},
      difficulty: '0x01',
      gasLimit: '0x2255100',
      timestamp: '1742212800',
      extraData: '',
      nonce: '0x1234',
    }
    const rules = createChainRules({ chainId: 560048n, genesis: hoodi as never })
    expect(rules.warnings).toEqual([
      `WARNING: --chain: ignoring genesis config field edgetrace does not know: "discovery" (geth ignores them too; if one changes execution on this chain, answers may differ from its nodes')`,
    ])
    expect(rules.commonFor(1n, 1742999831n).hardfork()).toBe('cancun')
    expect(rules.commonFor(2n, 1742999832n).hardfork()).toBe('prague')
    // preMergeForkBlock is Besu's mergeNetsplitBlock.
    const later = {
      ...hoodi,
      config: {
        ...hoodi.config,
        preMergeForkBlock: 7,
        shanghaiTime: undefined,
        cancunTime: undefined,
        pragueTime: undefined,
        blobSchedule: undefined,
        terminalTotalDifficulty: 100,
      },
    }
    expect(
      createChainRules({ chainId: 560048n, genesis: later as never })
        .commonFor(0n, 0n)
        .hardforkBlock('mergeNetsplitBlock'),
    ).toBe(7n)
    expect(requestContracts(rules.commonFor(2n, 1742999832n))).toEqual({
      deposit: '0x00000000219ab540356cbb839cbe05303d7705fa',
      withdrawalQueue: '0x00000961ef480eb55e80d19ad83579a64c007002',
      consolidationQueue: '0x0000bbddc7ce488642fb579f8b00f3a590007251',
    })
    // Several unknown fields: one warning naming them all; none, no warning.
    const several = createChainRules({
      chainId: 424242n,
      genesis: postMerge({ zeroBaseFee: true, evmStackSize: 2048, fooBlock: 5 }) as never,
    })
    expect(several.warnings).toEqual([
      expect.stringContaining('fields edgetrace does not know: "zeroBaseFee", "evmStackSize", "fooBlock"'),
    ])
    expect(createChainRules({ chainId: 424242n, genesis: postMerge({}) as never }).warnings).toEqual([])
  })

  it("uses a Besu genesis' request contract addresses, and refuses ones that are no address", () => {
    const rules = createChainRules({
      chainId: 424242n,
      genesis: postMerge({
        cancunTime: 0,
        pragueTime: 0,
        depositContractAddress: '0x4242424242424242424242424242424242424242',
        withdrawalRequestContractAddress: '0x66355689a9f067eeb9dc9d899E4192676988279C',
        consolidationRequestContractAddress: '0xF0e003F0dE2d583Ae28FA8cBF66aa096CdAce3ff',
      }) as never,
    })
    expect(rules.warnings).toEqual([])
    expect(requestContracts(rules.commonFor(1n, 1n))).toEqual({
      deposit: '0x4242424242424242424242424242424242424242',
      withdrawalQueue: '0x66355689a9f067eeb9dc9d899e4192676988279c',
      consolidationQueue: '0xf0e003f0de2d583ae28fa8cbf66aa096cdace3ff',
    })
    const refuse = (config: Record<string, unknown>) => () =>
      createChainRules({ chainId: 424242n, genesis: postMerge(config) as never })
    expect(refuse({ withdrawalRequestContractAddress: '0x1234' })).toThrow(
      'genesis config.withdrawalRequestContractAddress must be a 20-byte hex address, got "0x1234"',
    )
    expect(refuse({ depositContractAddress: 42 })).toThrow(
      'genesis config.depositContractAddress must be a 20-byte hex address, got 42',
    )
    expect(refuse({ preMergeForkBlock: 'soon' })).toThrow(
      'genesis config.preMergeForkBlock must be a non-negative integer, got "soon"',
    )
    // A known fork field with a wrong value is refused by name (it was a bare BigInt SyntaxError).
    expect(refuse({ pragueTime: 'next week' })).toThrow(
      'genesis config.pragueTime must be a non-negative integer, got "next week"',
    )
    expect(refuse({ cancunTime: -1 })).toThrow('genesis config.cancunTime must be a non-negative integer, got -1')
  })

  it('refuses unknown blobSchedule forks and fields, and forks it cannot execute, by name', () => {
    const refuse = (config: Record<string, unknown>) => () =>
      createChainRules({ chainId: 424242n, genesis: postMerge(config) as never })
    expect(refuse({ blobSchedule: { fusaka: { target: 1, max: 2, baseFeeUpdateFraction: 3 } } })).toThrow(
      'unknown fork "fusaka" in genesis config.blobSchedule; known: cancun, prague, osaka, bpo1',
    )
    expect(refuse({ blobSchedule: { cancun: { target: 1, max: 2, baseFeeUpdateFraction: 3, min: 1 } } })).toThrow(
      'unknown field "min" in genesis config.blobSchedule.cancun',
    )
    expect(refuse({ blobSchedule: { cancun: { target: 1, max: 2 } } })).toThrow(
      'genesis config.blobSchedule.cancun.baseFeeUpdateFraction must be a non-negative integer',
    )
    expect(refuse({ blobSchedule: { cancun: { target: 1, max: 2, baseFeeUpdateFraction: 0 } } })).toThrow(
      'genesis config.blobSchedule.cancun.baseFeeUpdateFraction must not be 0',
    )
    expect(refuse({ cancunTime: 0, pragueTime: 0, osakaTime: 0, bpo1Time: 0, bpo2Time: 0, bpo3Time: 0 })).toThrow(
      'genesis config.bpo3Time is set but blobSchedule has no entry for fork "bpo3"',
    )
    expect(refuse({ cancunTime: 0, pragueTime: 0, osakaTime: 0, amsterdamTime: 100 })).toThrow(
      'genesis config.amsterdamTime: edgetrace cannot execute the Amsterdam fork yet',
    )
    // Unscheduled (null) ones are fine.
    expect(refuse({ amsterdamTime: null, enableUBTAtGenesis: false })).not.toThrow()
  })

  it('refuses an unknown chain with neither, saying what to pass', () => {
    expect(() => createChainRules({ chainId: 31337n })).toThrow(UnknownChainError)
    expect(() => createChainRules({ chainId: 31337n })).toThrow(
      'pass --chain <geth-style genesis file> or --hardfork <name>',
    )
  })
})
