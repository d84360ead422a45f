import type { EVMInterface } from '@ethereumjs/evm'

type Precompiles = EVMInterface['precompiles']

/**
 * Which precompiles a transaction starts with warm (EIP-2929), as geth has it where precompiles are
 * moved or overridden (eth_simulateV1's `movePrecompileToAddress`): geth warms the fork's own
 * precompile addresses (`vm.ActivePrecompiles(rules)` in its state transition), whatever the
 * overrides did to them — an address a precompile was moved to is cold until touched, the address it
 * left (code or none) stays warm. ethereumjs warms every address of the EVM's running set (runTx
 * iterates `evm.precompiles.entries()`), moved ones included; this gives that iteration `warm`'s
 * addresses while every look-up (`get`, `has`, `keys`) still sees the running set.
 */
export function warmPrecompilesAsGeth(evm: EVMInterface, warm: ReadonlyMap<string, unknown>): void {
  const running = evm.precompiles
  const view = new Map(running) as Precompiles
  view.entries = () => new Map([...warm.keys()].map((key) => [key, running.get(key)])).entries() as never
  Object.defineProperty(evm, 'precompiles', { get: () => view, configurable: true })
}
