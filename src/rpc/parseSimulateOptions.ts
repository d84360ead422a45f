import type {
  SimulateBlockInput,
  SimulateCall,
  SimulateBlockOverrides,
  SimulateOptions,
  SimulateStateOverrides,
  SimulatedWithdrawal,
} from '../exec/simulateBlocks.js'
import type { Hex } from '../types/hex.js'
import { parseCallArgs } from './parseCallArgs.js'
import { parseBlockOverrides, parseStateOverrides } from './parseOverrides.js'
import { ParamError } from './params.js'
import { describe, parseAddress, parseBool, parseHash, parseObject, parseQuantity, parseUint64 } from './parsers.js'

/** An object's keys matched case-insensitively, as Go's JSON decoder matches struct fields. */
function get(o: Record<string, unknown>, name: string): unknown {
  const lower = name.toLowerCase()
  for (const [key, value] of Object.entries(o)) if (key.toLowerCase() === lower) return value
  return undefined
}

function within<value>(where: string, parse: () => value): value {
  try {
    return parse()
  } catch (err) {
    if (err instanceof ParamError) throw new ParamError(`${where}: ${err.message}`)
    throw err
  }
}

function parseWithdrawals(raw: unknown): SimulatedWithdrawal[] {
  if (!Array.isArray(raw)) throw new ParamError(`withdrawals: expected an array, got ${describe(raw)}`)
  return raw.map((entry, i) =>
    within(`withdrawal ${i}`, () => {
      const w = parseObject(entry, 'a withdrawal')
      return {
        index: parseUint64(get(w, 'index')),
        validatorIndex: parseUint64(get(w, 'validatorIndex')),
        address: parseAddress(get(w, 'address')),
        amount: parseUint64(get(w, 'amount')),
      }
    }),
  )
}

function parseSimBlockOverrides(raw: unknown): SimulateBlockOverrides {
  const o = parseObject(raw, 'a block override')
  const out: SimulateBlockOverrides = { ...parseBlockOverrides(raw) }
  const blobBaseFee = get(o, 'blobBaseFee')
  if (blobBaseFee != null) out.blobBaseFee = parseQuantity(blobBaseFee)
  const difficulty = get(o, 'difficulty')
  if (difficulty != null) out.difficulty = parseQuantity(difficulty)
  const beaconRoot = get(o, 'beaconRoot')
  if (beaconRoot != null) out.beaconRoot = parseHash(beaconRoot)
  const withdrawals = get(o, 'withdrawals')
  if (withdrawals != null) out.withdrawals = parseWithdrawals(withdrawals)
  return out
}

function parseSimStateOverrides(raw: unknown): SimulateStateOverrides {
  const accounts = parseStateOverrides(raw)
  const moves: Record<Hex, Hex> = {}
  for (const [address, value] of Object.entries(parseObject(raw, 'a state override'))) {
    const to = get(parseObject(value, `the override of ${address}`), 'movePrecompileToAddress')
    if (to != null) moves[parseAddress(address)] = parseAddress(to)
  }
  return { accounts, moves }
}

/** A simulated call: eth_call's arguments (a blob transaction's fields among them). */
function parseCall(raw: unknown): SimulateCall {
  return parseCallArgs(raw)
}

function parseBlockStateCall(raw: unknown, index: number): SimulateBlockInput {
  return within(`blockStateCalls[${index}]`, () => {
    const o = parseObject(raw, 'a block state call')
    const calls = get(o, 'calls')
    if (calls != null && !Array.isArray(calls)) throw new ParamError(`calls: expected an array, got ${describe(calls)}`)
    const blockOverrides = get(o, 'blockOverrides')
    const stateOverrides = get(o, 'stateOverrides')
    return {
      blockOverrides: blockOverrides != null ? parseSimBlockOverrides(blockOverrides) : undefined,
      stateOverrides: stateOverrides != null ? parseSimStateOverrides(stateOverrides) : undefined,
      calls: ((calls as unknown[] | null | undefined) ?? []).map((c, i) => within(`calls[${i}]`, () => parseCall(c))),
    }
  })
}

/** eth_simulateV1's first argument (geth's simOpts). */
export function parseSimulateOptions(raw: unknown): SimulateOptions & { returnFullTransactions: boolean } {
  const o = parseObject(raw, 'simulation options')
  const blocks = get(o, 'blockStateCalls')
  if (blocks != null && !Array.isArray(blocks)) {
    throw new ParamError(`blockStateCalls: expected an array, got ${describe(blocks)}`)
  }
  const flag = (name: string) => {
    const v = get(o, name)
    return v == null ? false : within(name, () => parseBool(v))
  }
  return {
    blocks: ((blocks as unknown[] | null | undefined) ?? []).map(parseBlockStateCall),
    validation: flag('validation'),
    traceTransfers: flag('traceTransfers'),
    returnFullTransactions: flag('returnFullTransactions'),
  }
}
