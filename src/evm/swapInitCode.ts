import type { Message } from '@ethereumjs/evm'

type EvmEvents = {
  events: {
    on(topic: string, listener: (data: never) => void): void
    off(topic: string, listener: (data: never) => void): void
  }
}

/**
 * Makes the creation of the contract at `address` run `initCode` instead of its own: once the EVM
 * has computed the created address (so a CREATE2 keeps the address its original init code gives,
 * as the reference daemon's overlay_callConstructor keeps it) and before any init code runs, the
 * creating message's code is replaced. The message is the last one to begin before the EVM announces
 * the new contract: nothing runs between a create message's start and that announcement. Returns
 * the detach function.
 */
export function swapInitCode(evm: unknown, address: string, initCode: Uint8Array): () => void {
  const events = (evm as EvmEvents).events
  const target = address.toLowerCase()
  let last: Message | undefined
  const onMessage = (message: Message) => {
    last = message
  }
  const onNewContract = (created: { address: { toString(): string } }) => {
    if (last !== undefined && created.address.toString().toLowerCase() === target) last.code = initCode
  }
  events.on('beforeMessage', onMessage as never)
  events.on('newContract', onNewContract as never)
  return () => {
    events.off('beforeMessage', onMessage as never)
    events.off('newContract', onNewContract as never)
  }
}
