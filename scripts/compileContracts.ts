// npx tsx scripts/compileContracts.ts [--check]: compiles src/node/devnet/contracts/*.sol with the
// solc npm package (its compiler ships inside the package) into src/node/devnet/artifacts.json,
// which is committed so that running the devnet needs no compiler. --check only compares.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import solc from 'solc'

const dir = fileURLToPath(new URL('../src/node/devnet/', import.meta.url))

/** One contract of solc's standard-JSON output, with the fields outputSelection asks for. */
type SolcContract = {
  abi: unknown
  evm: { bytecode: { object: string }; deployedBytecode: { object: string }; methodIdentifiers: Record<string, string> }
}

/** The devnet's compiler settings (what a test compiling the same sources must use to get the deployed code). */
export const DEVNET_SOLC_SETTINGS = { evmVersion: 'prague', optimizer: { enabled: true, runs: 200 } } as const

export function compileContracts(): string {
  const sources: Record<string, { content: string }> = {}
  for (const file of readdirSync(join(dir, 'contracts'))
    .filter((f) => f.endsWith('.sol'))
    .sort()) {
    sources[file] = { content: readFileSync(join(dir, 'contracts', file), 'utf8') }
  }
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      ...DEVNET_SOLC_SETTINGS,
      outputSelection: {
        '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object', 'evm.methodIdentifiers'] },
      },
    },
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input)))
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n'))
  const contracts: Record<string, unknown> = {}
  for (const file of Object.keys(output.contracts).sort()) {
    for (const [name, c] of Object.entries(output.contracts[file] as Record<string, SolcContract>)) {
      if (c.evm.bytecode.object === '') continue // interfaces have no code
      contracts[name] = {
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
        methodIdentifiers: c.evm.methodIdentifiers,
      }
    }
  }
  return `${JSON.stringify({ compiler: solc.version(), contracts }, null, 2)}\n`
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const fresh = compileContracts()
  const path = join(dir, 'artifacts.json')
  if (process.argv.includes('--check')) {
    const same = readFileSync(path, 'utf8') === fresh
    console.log(same ? 'artifacts.json is up to date' : 'artifacts.json differs from a fresh compile')
    process.exit(same ? 0 : 1)
  }
  writeFileSync(path, fresh)
  console.log(`wrote ${path}`)
}
