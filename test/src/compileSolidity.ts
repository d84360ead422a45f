import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'

export type Compiled = Record<string, { creation: `0x${string}`; runtime: `0x${string}` }>

const require = createRequire(import.meta.url)

/**
 * Where compiled output is kept between test files and runs: `EDGETRACE_SOLC_CACHE`, else
 * node_modules/.cache/edgetrace-solc (removed with node_modules, so a fresh install compiles afresh).
 */
export const defaultSolcCacheDir = (): string =>
  process.env.EDGETRACE_SOLC_CACHE ?? resolve(import.meta.dirname, '../../node_modules/.cache/edgetrace-solc')

/**
 * Compiles one Solidity source for prague with solc: each contract's creation and runtime bytecode, by name; throws on a compile error.
 * The output is cached on disk under `cacheDir`, keyed by the hash of solc's version and the whole
 * compiler input (source and settings): solc-js loads in about 0.7 s and compiles a test's contracts
 * in 0.2–2 s, which each test file paid again. solc is loaded only on a miss.
 */
export function compileSolidity(fileName: string, content: string, cacheDir: string = defaultSolcCacheDir()): Compiled {
  const input = {
    language: 'Solidity',
    sources: { [fileName]: { content } },
    settings: {
      evmVersion: 'prague',
      outputSelection: { '*': { '*': ['evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  }
  const solcVersion: string = require('solc/package.json').version
  const key = createHash('sha256').update(JSON.stringify({ solcVersion, input })).digest('hex')
  const cached = join(cacheDir, `${key}.json`)
  try {
    return JSON.parse(readFileSync(cached, 'utf8')) as Compiled
  } catch {
    // Not cached yet (or unreadable): compile.
  }
  const solc = require('solc') as { compile(input: string): string }
  const out = JSON.parse(solc.compile(JSON.stringify(input)))
  const errors = (out.errors ?? []).filter((e: any) => e.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((e: any) => e.formattedMessage).join('\n'))
  const contracts: Compiled = {}
  for (const [name, c] of Object.entries<any>(out.contracts[fileName])) {
    contracts[name] = { creation: `0x${c.evm.bytecode.object}`, runtime: `0x${c.evm.deployedBytecode.object}` }
  }
  // Written whole then renamed: a file compiling the same source at the same time never reads half of it.
  mkdirSync(cacheDir, { recursive: true })
  const partial = `${cached}.${process.pid}.${Date.now()}.tmp`
  writeFileSync(partial, JSON.stringify(contracts))
  renameSync(partial, cached)
  return contracts
}
