import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { createSourceRegistry } from './createSourceRegistry.js'
import { embeddedMetadata } from './readCreationCode.js'
import { readStandardJson } from './readStandardJson.js'

// A constructor that creates a contract: its creation code carries the created contract's creation
// code, runtime and metadata, which another compilation of the same code (other comments, other
// paths) gives another hash.

const require = createRequire(import.meta.url)
const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;
contract Inner {
    uint256 public x = 1;
}
contract Factory {
    Inner public inner;
    constructor(uint256 v) {
        inner = new Inner();
        require(v > 0, "zero");
    }
    function get() external view returns (uint256) {
        return inner.x();
    }
}
`

function compile(comment: string) {
  const input = {
    language: 'Solidity',
    sources: { 'Factory.sol': { content: `${SOURCE}// ${comment}\n` } },
    settings: {
      evmVersion: 'prague',
      optimizer: { enabled: true, runs: 200 },
      outputSelection: {
        '*': {
          '*': [
            'evm.bytecode.object',
            'evm.bytecode.sourceMap',
            'evm.deployedBytecode.object',
            'evm.deployedBytecode.sourceMap',
          ],
        },
      },
    },
  }
  const solc = require('solc') as { compile(input: string): string }
  const output = JSON.parse(solc.compile(JSON.stringify(input)))
  return { output, input }
}

describe('creation code with a contract its constructor creates', () => {
  it('masks the metadata of both: the runtime code’s and the created contract’s', () => {
    const a = compile('one')
    const b = compile('two') // the same code, another metadata hash for both contracts
    const factory = readStandardJson(a.output, a.input).find((c) => c.name === 'Factory')!
    const creation = factory.creation!
    const blobs = embeddedMetadata(creation.code)
    expect(blobs).toHaveLength(2)
    for (const r of blobs) expect(creation.masked).toContainEqual(r)
    // Each blob is solc's metadata: its two-byte length at its end.
    for (const r of blobs) {
      const end = r.start + r.length
      expect((creation.code[end - 2]! << 8) | creation.code[end - 1]!).toBe(r.length - 2)
    }
    const other = `0x${b.output.contracts['Factory.sol'].Factory.evm.bytecode.object}`
    expect(other).not.toBe(`0x${a.output.contracts['Factory.sol'].Factory.evm.bytecode.object}`)
    const registry = createSourceRegistry([factory])
    const args = `${'0'.repeat(63)}1`
    const init = Uint8Array.from(Buffer.from(`${other.slice(2)}${args}`, 'hex'))
    expect(registry.matchCreation(init)?.name).toBe('Factory')
    // A changed instruction is still a mismatch.
    init[3]! ^= 0x01
    expect(registry.matchCreation(init)).toBeUndefined()
  })

  it('finds nothing in code without metadata', () => {
    expect(embeddedMetadata(new Uint8Array([0x60, 0x80, 0x60, 0x40, 0x52, 0xa2, 0x64, 0x00]))).toEqual([])
  })
})
