import { bigIntToBytes, bytesToHex, privateToAddress, setLengthLeft } from '@ethereumjs/util'
import type { Hex } from '../../src/types/hex.js'
import { type BorDevnetPlan, borGenesisExtraData } from '../../tools/fixture-node/produceBorChain.js'
import { type ModelSet, proposerOf, sprintEnd } from './borProposerModel.js'

// The Bor devnet the tests build with the fixture node (test/borChain.test.ts, the browser test, the
// bench): validator keys of the tests, a plan of set changes and out-of-turn blocks, and what an
// independent model of bor's validator set predicts for every block of it.
export const keys = [1, 2, 3, 4].map((i) => setLengthLeft(bigIntToBytes(BigInt(0x2000 + i)), 32))
export const address = (key: number) => bytesToHex(privateToAddress(keys[key]!)) as Hex
export const funder = setLengthLeft(bigIntToBytes(0xf00dn), 32)
export const SPRINT = 4
/** Where the devnet's base fees go (Polygon mainnet's first burnt contract). */
export const BURNT_CONTRACT = '0x70bca57f4579f58670ab2d18ef16e02c17553c38'
export const BLOCKS = 300
export const genesisSet = [
  { key: 0, power: 10 },
  { key: 1, power: 20 },
  { key: 2, power: 30 },
]
export const plan: BorDevnetPlan = {
  keys,
  blocks: BLOCKS,
  validators: [
    {
      from: 12,
      set: [
        { key: 0, power: 10 },
        { key: 1, power: 20 },
        { key: 2, power: 30 },
        { key: 3, power: 15 },
      ],
    },
    {
      from: 28,
      set: [
        { key: 1, power: 20 },
        { key: 2, power: 5 },
        { key: 3, power: 15 },
      ],
    },
  ],
  outOfTurn: { 5: 1, 14: 2, 30: 1, 257: 1 },
  stateSyncs: [32, 36],
}
export const genesis = {
  config: {
    chainId: 4243,
    homesteadBlock: 0,
    eip150Block: 0,
    eip155Block: 0,
    byzantiumBlock: 0,
    constantinopleBlock: 0,
    petersburgBlock: 0,
    istanbulBlock: 0,
    berlinBlock: 0,
    londonBlock: 0,
    shanghaiBlock: 20,
    cancunBlock: 20,
    bor: {
      period: { '0': 2 },
      sprint: { '0': SPRINT },
      jaipurBlock: 0,
      delhiBlock: 0,
      indoreBlock: 0,
      burntContract: { '0': BURNT_CONTRACT },
    },
  },
  gasLimit: '0x1c9c380',
  difficulty: '0x1',
  baseFeePerGas: '0x7',
  timestamp: '0x65000000',
  extraData: borGenesisExtraData(keys, genesisSet),
  alloc: { [bytesToHex(privateToAddress(funder))]: { balance: '0x56bc75e2d63100000' } },
}

/** The model's prediction for every block: its signer and difficulty, and the snapshot after it. */
export type Predicted = { signer: string; difficulty: number; after: ModelSet }
export const copy = (set: ModelSet): ModelSet => {
  const validators = set.validators.map((v) => ({ ...v }))
  const proposer =
    set.proposer && validators.find((v) => v.address === set.proposer!.address && v.accum === set.proposer!.accum)
  return {
    validators,
    proposer: proposer ?? (set.proposer ? { ...set.proposer } : undefined),
    cachedTotal: set.cachedTotal,
  }
}
export const named = (n: number) => {
  const entry = [...plan.validators!].filter((v) => v.from <= n).sort((a, b) => b.from - a.from)[0]
  return (entry?.set ?? genesisSet).map((v) => ({ address: address(v.key), power: BigInt(v.power) }))
}
export function predict(from: { number: number; set: ModelSet }, to = BLOCKS): Map<number, Predicted> {
  const out = new Map<number, Predicted>()
  let set = from.set
  out.set(from.number, { signer: '', difficulty: 0, after: copy(set) })
  for (let n = from.number + 1; n <= to; n++) {
    const p = set.validators.indexOf(proposerOf(set))
    const offset = plan.outOfTurn?.[n] ?? 0
    const signer = set.validators[(p + offset) % set.validators.length]!.address
    const difficulty = set.validators.length - offset
    if ((n + 1) % SPRINT === 0) set = sprintEnd(set, named(n + 1))
    out.set(n, { signer, difficulty, after: copy(set) })
  }
  return out
}
export const snapshotJson = (number: number, hash: string, set: ModelSet) => {
  const v = (x: ModelSet['validators'][number]) => ({
    ID: 0,
    signer: x.address,
    power: Number(x.power),
    accum: Number(x.accum),
  })
  return { number, hash, validatorSet: { validators: set.validators.map(v), proposer: v(proposerOf(set)) } }
}
