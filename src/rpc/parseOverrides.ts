import type { AccountOverride, BlockOverrides, StateOverrides } from '../exec/types.js'
import { ParamError } from './params.js'
import { parseAddress, parseData, parseHash, parseObject, parseQuantity, parseUint64 } from './parsers.js'

function parseStorage(raw: unknown, name: string): Record<`0x${string}`, `0x${string}`> {
  const obj = parseObject(raw, name)
  const out: Record<`0x${string}`, `0x${string}`> = {}
  for (const [slot, value] of Object.entries(obj)) out[parseHash(slot)] = parseHash(value)
  return out
}

const ACCOUNT_FIELDS = new Set(['balance', 'nonce', 'code', 'state', 'stateDiff'])

/** geth's StateOverride: address → { balance, nonce, code, state | stateDiff }. */
export function parseStateOverrides(raw: unknown): StateOverrides {
  const obj = parseObject(raw, 'a state override')
  const out: StateOverrides = {}
  for (const [address, value] of Object.entries(obj)) {
    const addr = parseAddress(address)
    const o = parseObject(value, `the override of ${address}`)
    for (const key of Object.keys(o)) {
      if (!ACCOUNT_FIELDS.has(key)) throw new ParamError(`unknown field "${key}" in the override of ${address}`)
    }
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
