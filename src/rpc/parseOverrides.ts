import type { AccountOverride, BlockOverrides, StateOverrides } from '../types/overrides.js'
import { ParamError } from './params.js'
import { parseAddress, parseData, parseHash, parseObject, parseQuantity, parseUint64 } from './parsers.js'
import type { Hex } from '../types/hex.js'

function parseStorage(raw: unknown, name: string): Record<Hex, Hex> {
  const obj = parseObject(raw, name)
  const out: Record<Hex, Hex> = {}
  for (const [slot, value] of Object.entries(obj)) out[parseHash(slot)] = parseHash(value)
  return out
}

const ACCOUNT_FIELDS = ['balance', 'nonce', 'code', 'state', 'stateDiff']

/** An object's known keys matched case-insensitively and other keys ignored, as Go's JSON decoder does. */
function knownFields(o: Record<string, unknown>, known: readonly string[]): Record<string, unknown> {
  const byLower = new Map(known.map((k) => [k.toLowerCase(), k]))
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(o)) {
    const name = byLower.get(key.toLowerCase())
    if (name !== undefined) out[name] = value
  }
  return out
}

/**
 * geth's StateOverride: address → { balance, nonce, code, state | stateDiff }. Other keys are
 * ignored, as geth ignores them (Besu's debug_traceCall_stateOverride.json carries a "comment").
 */
export function parseStateOverrides(raw: unknown): StateOverrides {
  const obj = parseObject(raw, 'a state override')
  const out: StateOverrides = {}
  for (const [address, value] of Object.entries(obj)) {
    const addr = parseAddress(address)
    const o = knownFields(parseObject(value, `the override of ${address}`), ACCOUNT_FIELDS)
    if (o.state != null && o.stateDiff != null) {
      throw new ParamError(`account ${addr} has both 'state' and 'stateDiff'`)
    }
    const override: AccountOverride = {}
    if (o.balance != null) override.balance = parseQuantity(o.balance)
    if (o.nonce != null) override.nonce = parseUint64(o.nonce)
    if (o.code != null) override.code = parseData(o.code)
    if (o.state != null) override.state = parseStorage(o.state, 'state')
    if (o.stateDiff != null) override.stateDiff = parseStorage(o.stateDiff, 'stateDiff')
    out[addr] = override
  }
  return out
}

/** geth's BlockOverrides for calls. */
export function parseBlockOverrides(raw: unknown): BlockOverrides {
  const o = parseObject(raw, 'a block override')
  const out: BlockOverrides = {}
  if (o.number != null) out.number = parseQuantity(o.number)
  if (o.time != null) out.time = parseUint64(o.time)
  if (o.gasLimit != null) out.gasLimit = parseUint64(o.gasLimit)
  if (o.feeRecipient != null) out.feeRecipient = parseAddress(o.feeRecipient)
  else if (o.coinbase != null) out.feeRecipient = parseAddress(o.coinbase)
  if (o.prevRandao != null) out.prevRandao = parseHash(o.prevRandao)
  else if (o.random != null) out.prevRandao = parseHash(o.random)
  if (o.baseFeePerGas != null) out.baseFeePerGas = parseQuantity(o.baseFeePerGas)
  else if (o.baseFee != null) out.baseFeePerGas = parseQuantity(o.baseFee)
  return out
}
