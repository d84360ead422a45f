import { type InterpreterPrototype, interpreterPrototype } from '../wasm/interpreterPrototype.js'

type Analysis = ReturnType<InterpreterPrototype['_getValidJumpDestinations']>

const MARK = Symbol.for('edgetrace.jumpAnalysisCache')

/**
 * @ethereumjs/evm analyses a frame's code (its jump destinations, its pushes, each byte's opcode
 * entry) every time a frame runs it: a router called 100 times in a block is analysed 100 times,
 * 24 KB each (a twelfth of the CPU of the Erigon corpus replays). The analysis of one code is kept
 * while that code (the state manager's own copy, the same object each time it is read) lives, for
 * the opcode table it was made with: tracing swaps the EVM's table (createOpcodeTablePatch), and a
 * fork has its own. Installed once a process; what the analysis holds is only ever read.
 */
export async function cacheJumpAnalysis(): Promise<void> {
  const prototype = (await interpreterPrototype()) as InterpreterPrototype & { [MARK]?: true }
  if (prototype[MARK]) return
  prototype[MARK] = true
  const analyse = prototype._getValidJumpDestinations
  const kept = new WeakMap<Uint8Array, { table: unknown; analysis: Analysis }>()
  prototype._getValidJumpDestinations = function (this: { _evm: { _opcodeMap: unknown } }, code: Uint8Array) {
    const table = this._evm._opcodeMap
    const hit = kept.get(code)
    if (hit !== undefined && hit.table === table) return hit.analysis
    const analysis = analyse.call(this, code)
    kept.set(code, { table, analysis })
    return analysis
  }
}
