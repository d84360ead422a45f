// npx tsx scripts/compileContracts.ts [--check]: compiles src/node/devnet/contracts/*.sol with the
// solc npm package (its compiler ships inside the package) into src/node/devnet/artifacts.json (what
// the devnet deploys) and src/node/devnet/sources.json (the same compilation as a Hardhat-style
// build-info, `{input, output}`: sources, creation and runtime source maps, ABIs and storage layouts, for
// source-level debugging), both committed so that running the devnet needs no compiler. --check only
// compares.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import solc from 'solc'

const dir = fileURLToPath(new URL('../src/node/devnet/', import.meta.url))

/** One contract of solc's standard-JSON output, with the fields outputSelection asks for. */
type SolcContract = {
  abi: unknown
  storageLayout: unknown
  evm: {
    bytecode: { object: string; sourceMap: string; linkReferences: unknown }
    deployedBytecode: { object: string; sourceMap: string; immutableReferences: unknown }
    methodIdentifiers: Record<string, string>
  }
}

/** The devnet's compiler settings (what a test compiling the same sources must use to get the deployed code). */
export const DEVNET_SOLC_SETTINGS = { evmVersion: 'prague', optimizer: { enabled: true, runs: 200 } } as const

/** The two committed files' text: artifacts.json and sources.json. */
export type DevnetCompilation = { artifacts: string; sources: string }

let compiled: DevnetCompilation | undefined

/** Compiles the devnet's contracts once (per process): the text of artifacts.json and of sources.json. */
export function compileDevnet(): DevnetCompilation {
  if (compiled) return compiled
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
        '*': {
          '*': [
            'abi',
            'storageLayout',
            'evm.bytecode.object',
            'evm.bytecode.sourceMap',
            'evm.bytecode.linkReferences',
            'evm.deployedBytecode.object',
            'evm.deployedBytecode.sourceMap',
            'evm.deployedBytecode.immutableReferences',
            'evm.methodIdentifiers',
          ],
        },
      },
    },
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input)))
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n'))
  const contracts: Record<string, unknown> = {}
  const debug: Record<string, Record<string, unknown>> = {}
  for (const file of Object.keys(output.contracts).sort()) {
    for (const [name, c] of Object.entries(output.contracts[file] as Record<string, SolcContract>)) {
      if (c.evm.bytecode.object === '') continue // interfaces have no code
      contracts[name] = {
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
        methodIdentifiers: c.evm.methodIdentifiers,
      }
      debug[file] ??= {}
      debug[file][name] = {
        abi: c.abi,
        storageLayout: c.storageLayout,
        evm: {
          bytecode: {
            object: c.evm.bytecode.object,
            sourceMap: c.evm.bytecode.sourceMap,
            linkReferences: c.evm.bytecode.linkReferences,
          },
          deployedBytecode: {
            object: c.evm.deployedBytecode.object,
            sourceMap: c.evm.deployedBytecode.sourceMap,
            immutableReferences: c.evm.deployedBytecode.immutableReferences,
          },
        },
      }
    }
  }
  const ids: Record<string, { id: number }> = {}
  for (const file of Object.keys(output.sources).sort()) ids[file] = { id: output.sources[file].id }
  const buildInfo = {
    _format: 'hh-sol-build-info-1',
    solcVersion: solc.version(),
    input: { language: 'Solidity', sources, settings: DEVNET_SOLC_SETTINGS },
    output: { sources: ids, contracts: debug },
  }
  compiled = {
    artifacts: `${JSON.stringify({ compiler: solc.version(), contracts }, null, 2)}\n`,
    sources: `${JSON.stringify(buildInfo)}\n`,
  }
  return compiled
}

/** The text of artifacts.json. */
export const compileContracts = (): string => compileDevnet().artifacts

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const fresh = compileDevnet()
  let same = true
  for (const [file, text] of [
    ['artifacts.json', fresh.artifacts],
    ['sources.json', fresh.sources],
  ] as const) {
    const path = join(dir, file)
    if (process.argv.includes('--check')) {
      const ok = readFileSync(path, 'utf8') === text
      console.log(ok ? `${file} is up to date` : `${file} differs from a fresh compile`)
      same &&= ok
    } else {
      writeFileSync(path, text)
      console.log(`wrote ${path}`)
    }
  }
  process.exit(same ? 0 : 1)
}
