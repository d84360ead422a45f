import { createVM } from '@ethereumjs/vm'
import { bytesToHex, createAddressFromString, hexToBytes } from '@ethereumjs/util'
import { buildCallTransaction } from '../../exec/buildCallTransaction.js'
import { callArgsOfTransaction } from '../../exec/callArgs.js'
import { COOPERATIVE } from '../../exec/cooperative.js'
import { stateBefore } from '../../exec/stateBefore.js'
import { createExecutionDeadline, withTimeout } from '../../exec/withTimeout.js'
import { runTracedTransaction } from '../../evm/runTracedTransaction.js'
import { chainEvmOptions } from '../../exec/borExecution.js'
import { swapInitCode } from '../../evm/swapInitCode.js'
import type { Hex } from '../../types/hex.js'
import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseAddress, parseData } from '../parsers.js'
import { findCreation } from './findCreation.js'

/**
 * overlay_callConstructor(address, code): the runtime code `code`, run as the creation code of the
 * contract at `address`, would have deployed — the reference daemon's semantics
 * (rpc/jsonrpc/overlay_api.go): the contract's creating transaction is found (findCreation), the
 * block's earlier transactions are replayed on verified state, and the creating transaction runs
 * again from its sender with --rpc.gascap gas and no balance check for it (the reference's gas
 * bailout), its creation of `address` running `code` instead of its own init code — at the same
 * address (a factory's CREATE or CREATE2 included; the CREATE2 address stays the one the original
 * init code gave, as the reference keeps it). `{code}` when code is left at the address, else null
 * (a constructor that reverts or deploys nothing), as the reference answers.
 */
export const callConstructor = defineMethod({
  name: 'overlay_callConstructor',
  params: [required(parseAddress), required(parseData)],
  async run(engine, [address, code], context): Promise<{ code: Hex } | null> {
    const deadline = context.deadline ?? createExecutionDeadline(engine.options.evmTimeoutMs)
    try {
      const { loaded, index } = await findCreation(engine, address, deadline)
      const state = await stateBefore(engine, loaded.header, index, { deadline })
      const original = loaded.block.transactions[index]!
      const common = loaded.header.common.copy()
      const gasCap = engine.options.gasCap > 0n ? engine.options.gasCap : loaded.header.header.gasLimit
      const { tx } = buildCallTransaction(callArgsOfTransaction(original), gasCap, original.nonce, common)
      return await withTimeout(
        engine.options.evmTimeoutMs,
        async (signal) => {
          const vm = await createVM({
            common,
            stateManager: state,
            blockchain: engine.headers.blockchainFor(loaded.header),
            evmOpts: chainEvmOptions(engine.rules, loaded.block.header),
          })
          const detach = swapInitCode(vm.evm, address, hexToBytes(code))
          try {
            await runTracedTransaction(
              vm,
              tx,
              loaded.block,
              {},
              { skipBalance: true, skipNonce: true, skipBlockGasLimitValidation: true, skipHardForkValidation: true },
              { signal, scheduler: COOPERATIVE, engine },
            )
          } finally {
            detach()
          }
          const deployed = await state.getCode(createAddressFromString(address))
          return deployed.length > 0 ? { code: bytesToHex(deployed) as Hex } : null
        },
        deadline,
      )
    } finally {
      if (!context.deadline) deadline.dispose()
    }
  },
})
