import { hexToBytes } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import artifacts from '../node/devnet/artifacts.json' with { type: 'json' }
import buildInfo from '../node/devnet/sources.json' with { type: 'json' }
import { createSourceLocator } from './createSourceLocator.js'
import { createSourceRegistry } from './createSourceRegistry.js'
import { readSourceFiles } from './readSourceFiles.js'

// The devnet's committed build-info (scripts/compileContracts.ts), given as files the three ways a
// page or a browser config may have them: whole, as a standard-JSON output with its input beside
// it, and laid out as Foundry's out/ (artifacts and a build-info).

type Json = Record<string, any>
const info = buildInfo as Json
const deployed = (name: string) => hexToBytes((artifacts as Json).contracts[name].deployedBytecode as `0x${string}`)

function foundryLayout(): { name: string; text: string }[] {
  const files: { name: string; text: string }[] = []
  const sourceIdToPath: Record<string, string> = {}
  for (const [path, s] of Object.entries<Json>(info.output.sources)) sourceIdToPath[s.id] = path
  for (const [file, byName] of Object.entries<Json>(info.output.contracts)) {
    for (const [name, c] of Object.entries<Json>(byName)) {
      files.push({
        name: `out/${file}/${name}.json`,
        text: JSON.stringify({
          abi: c.abi,
          deployedBytecode: c.evm.deployedBytecode,
          storageLayout: c.storageLayout,
          metadata: { settings: { compilationTarget: { [file]: name } } },
          ast: { absolutePath: file },
          id: info.output.sources[file].id,
        }),
      })
    }
  }
  files.push({
    name: 'out/build-info/0123abcd.json',
    text: JSON.stringify({ source_id_to_path: sourceIdToPath, input: info.input }),
  })
  return files
}

describe('readSourceFiles', () => {
  it('reads a Hardhat-style build-info, and the registry matches the devnet’s deployed code', () => {
    const { contracts, read, unread } = readSourceFiles([{ name: 'sources.json', text: JSON.stringify(info) }])
    expect(contracts.map((c) => c.name).sort()).toEqual(['Child', 'Inspector', 'Scenarios', 'Token'])
    expect(read).toEqual(['sources.json'])
    expect(unread).toEqual([])
    const registry = createSourceRegistry(contracts)
    const token = registry.match(deployed('Token'))
    expect(token?.name).toBe('Token')
    // A pc inside transfer's body lands on Token.sol, on a line of its text.
    const locator = createSourceLocator(token!)
    const lines = new Set<string>()
    for (let pc = 0; pc < token!.runtime.length; pc++) {
      const at = locator.at(pc)
      if (at) lines.add(`${at.file}:${at.line}`)
    }
    expect(lines.has('Token.sol:42')).toBe(true) // require(balanceOf[from] >= value, …) in _move
  })

  it('skips Hardhat’s per-contract artifacts beside its build-info', () => {
    const { contracts, unread, skipped } = readSourceFiles([
      { name: 'artifacts/build-info/abc.json', text: JSON.stringify(info) },
      {
        name: 'artifacts/Token.sol/Token.json',
        text: JSON.stringify({ _format: 'hh-sol-artifact-1', contractName: 'Token', deployedBytecode: '0x60' }),
      },
      {
        name: 'artifacts/Token.sol/Token.dbg.json',
        text: JSON.stringify({ _format: 'hh-sol-dbg-1', buildInfo: '../build-info/abc.json' }),
      },
    ])
    expect(contracts).toHaveLength(4)
    expect(unread).toEqual([])
    expect(skipped).toEqual(['artifacts/Token.sol/Token.json', 'artifacts/Token.sol/Token.dbg.json'])
  })

  it('reads a standard-JSON output with its input given as another file', () => {
    const { contracts, unread } = readSourceFiles([
      { name: 'solc-input.json', text: JSON.stringify(info.input) },
      { name: 'solc-output.json', text: JSON.stringify(info.output) },
    ])
    expect(unread).toEqual([])
    const token = contracts.find((c) => c.name === 'Token')!
    expect([...token.sources.values()].find((s) => s.path === 'Token.sol')?.content).toContain('contract Token')
  })

  it('reads a Foundry out/ (artifacts and their build-info), saying which files it could not read', () => {
    const { contracts, unread } = readSourceFiles([
      ...foundryLayout(),
      { name: 'out/notes.txt', text: 'hello' },
      { name: 'foundry.lock.json', text: '{"lib/forge-std": {}}' },
    ])
    expect(contracts.map((c) => c.name).sort()).toEqual(['Child', 'Inspector', 'Scenarios', 'Token'])
    const scenarios = createSourceRegistry(contracts).match(deployed('Scenarios'))
    expect(scenarios?.name).toBe('Scenarios')
    expect([...scenarios!.sources.values()].map((s) => s.path).sort()).toEqual([
      'Inspector.sol',
      'Scenarios.sol',
      'Token.sol',
    ])
    expect(unread.map((u) => u.name)).toEqual(['out/notes.txt', 'foundry.lock.json'])
    expect(unread[0]!.why).toBe('not JSON')
  })

  it('takes a Foundry artifact’s text from a .sol file when no build-info is given', () => {
    const token = foundryLayout().find((f) => f.name === 'out/Token.sol/Token.json')!
    const { contracts, read } = readSourceFiles([
      token,
      { name: 'project/Token.sol', text: info.input.sources['Token.sol'].content },
    ])
    expect(read.sort()).toEqual(['out/Token.sol/Token.json', 'project/Token.sol'])
    const at = createSourceLocator(contracts[0]!).at(0)
    expect(at?.file).toBe('Token.sol')
  })
})
