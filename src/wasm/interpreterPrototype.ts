import { createEVM } from '@ethereumjs/evm'

/** The methods of @ethereumjs/evm's Interpreter (a class the package does not export) edgetrace wraps. */
export type InterpreterPrototype = {
  _getValidJumpDestinations(code: Uint8Array): {
    jumps: Uint8Array
    pushes: Record<number, bigint>
    opcodesCached: unknown[]
  }
  run(code: Uint8Array, opts?: { pc?: number }): Promise<unknown>
}

let found: Promise<InterpreterPrototype> | undefined

/**
 * @ethereumjs/evm's Interpreter.prototype, found once a process: a throwaway EVM on its own in-memory
 * state runs one STOP, whose handler sees the interpreter running it (≈ 4 ms, once).
 */
export function interpreterPrototype(): Promise<InterpreterPrototype> {
  found ??= (async () => {
    const evm = await createEVM()
    const table = (evm as unknown as { _opcodeMap: { opHandler: (rs: never, common: never) => unknown }[] })._opcodeMap
    const stop = table[0]!
    let prototype: InterpreterPrototype | undefined
    table[0] = {
      ...stop,
      opHandler: (rs: never, common: never) => {
        prototype = Object.getPrototypeOf((rs as { interpreter: object }).interpreter) as InterpreterPrototype
        return stop.opHandler(rs, common)
      },
    }
    await evm.runCode({ code: Uint8Array.of(0x00), gasLimit: 100n })
    table[0] = stop
    if (!prototype) throw new Error("@ethereumjs/evm's interpreter was not seen running STOP")
    return prototype
  })()
  return found
}
