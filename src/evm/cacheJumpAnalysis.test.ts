import { createEVM } from '@ethereumjs/evm'
import { Account, createAddressFromString, hexToBytes } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { cacheJumpAnalysis } from './cacheJumpAnalysis.js'
import { interpreterPrototype } from '../wasm/interpreterPrototype.js'

describe('cacheJumpAnalysis', () => {
  it('keeps one analysis per code and opcode table, and frames run as before', async () => {
    await cacheJumpAnalysis()
    await cacheJumpAnalysis() // installed once
    const prototype = await interpreterPrototype()
    const code = hexToBytes('0x600a5b6001900380600257') // 10 down to 0 in a JUMPI loop
    const evmA = {
      _evm: { _opcodeMap: [] as unknown[] },
      common: { isActivatedEIP: () => false },
      lookupOpInfo: () => ({}),
    }
    const first = prototype._getValidJumpDestinations.call(evmA, code)
    expect(prototype._getValidJumpDestinations.call(evmA, code)).toBe(first)
    expect([...first.jumps].flatMap((bit, pc) => (bit ? [pc] : []))).toEqual([2])
    // Another table (tracing's patched copy, another fork), or another code: analysed afresh.
    const evmB = { ...evmA, _evm: { _opcodeMap: [] as unknown[] } }
    expect(prototype._getValidJumpDestinations.call(evmB, code)).not.toBe(first)
    expect(prototype._getValidJumpDestinations.call(evmA, code.slice())).not.toBe(first)

    const evm = await createEVM()
    const to = createAddressFromString(`0x${'ab'.repeat(20)}`)
    await evm.stateManager.putAccount(to, new Account())
    await evm.stateManager.putCode(to, code)
    const runs = []
    for (let i = 0; i < 3; i++) runs.push(await evm.runCall({ to, gasLimit: 100_000n }))
    for (const run of runs) {
      expect(run.execResult.exceptionError).toBeUndefined()
      expect(run.execResult.executionGasUsed).toBe(runs[0]!.execResult.executionGasUsed)
    }
    // PUSH1, then 10 rounds of JUMPDEST PUSH1 SWAP1 SUB DUP1 PUSH1 JUMPI
    expect(runs[0]!.execResult.executionGasUsed).toBe(3n + 10n * (1n + 3n + 3n + 3n + 3n + 3n + 10n))
  })
})
