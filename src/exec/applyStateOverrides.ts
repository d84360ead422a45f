import type { StateManagerInterface } from '@ethereumjs/common'
import { Account, createAddressFromString, hexToBytes } from '@ethereumjs/util'
import type { StateOverrides } from '../types/overrides.js'
import type { Hex } from '../types/hex.js'

/** Applies geth-style state overrides to an execution's state before it runs. */
export async function applyStateOverrides(state: StateManagerInterface, overrides: StateOverrides): Promise<void> {
  await state.checkpoint()
  for (const [address, o] of Object.entries(overrides)) {
    const addr = createAddressFromString(address)
    if (o.code !== undefined) await state.putCode(addr, hexToBytes(o.code))
    if (o.balance !== undefined || o.nonce !== undefined) {
      const account = (await state.getAccount(addr)) ?? new Account()
      if (o.balance !== undefined) account.balance = o.balance
      if (o.nonce !== undefined) account.nonce = o.nonce
      await state.putAccount(addr, account)
    }
    if (o.state !== undefined) await state.clearStorage(addr)
    for (const [slot, value] of Object.entries(o.state ?? o.stateDiff ?? {})) {
      await state.putStorage(addr, hexToBytes(slot as Hex), hexToBytes(value))
    }
  }
  await state.commit()
}
