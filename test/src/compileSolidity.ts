import solc from 'solc'

export type Compiled = Record<string, { creation: `0x${string}`; runtime: `0x${string}` }>

/** Compiles one Solidity source for prague with solc: each contract's creation and runtime bytecode, by name; throws on a compile error. */
export function compileSolidity(fileName: string, content: string): Compiled {
  const input = {
    language: 'Solidity',
    sources: { [fileName]: { content } },
    settings: {
      evmVersion: 'prague',
      outputSelection: { '*': { '*': ['evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  }
  const out = JSON.parse(solc.compile(JSON.stringify(input)))
  const errors = (out.errors ?? []).filter((e: any) => e.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((e: any) => e.formattedMessage).join('\n'))
  const contracts: Compiled = {}
  for (const [name, c] of Object.entries<any>(out.contracts[fileName])) {
    contracts[name] = { creation: `0x${c.evm.bytecode.object}`, runtime: `0x${c.evm.deployedBytecode.object}` }
  }
  return contracts
}
