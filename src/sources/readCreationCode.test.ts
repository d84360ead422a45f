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

function compile(comment: string, source = SOURCE) {
  const input = {
    language: 'Solidity',
    sources: { 'Factory.sol': { content: `${source}// ${comment}\n` } },
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

// A function that creates a contract: the runtime code carries the created contract's creation code
// and metadata, whose hash another compilation changes; the deployed code is still this contract's.
const RUNTIME_FACTORY = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;
contract Child {
    uint256 public x;
    constructor(uint256 v) { x = v; }
}
contract Maker {
    function make(uint256 v) external returns (address) {
        return address(new Child(v));
    }
}
`

describe('runtime code with a contract it creates', () => {
  it('is matched whatever the created contract’s metadata; a changed instruction is not', () => {
    const a = compile('one', RUNTIME_FACTORY)
    const b = compile('two', RUNTIME_FACTORY)
    const maker = readStandardJson(a.output, a.input).find((c) => c.name === 'Maker')!
    const deployed = (o: typeof a) =>
      Uint8Array.from(Buffer.from(o.output.contracts['Factory.sol'].Maker.evm.deployedBytecode.object, 'hex'))
    const own = deployed(a)
    const other = deployed(b)
    // Two metadata blobs in the runtime code: Child's (inside its creation code) and Maker's own tail.
    expect(embeddedMetadata(own)).toHaveLength(2)
    expect(Buffer.from(other).equals(Buffer.from(own))).toBe(false)
    const registry = createSourceRegistry([maker])
    expect(registry.match(own)?.name).toBe('Maker')
    expect(registry.match(other)?.name).toBe('Maker')
    other[1]! ^= 0x01
    expect(registry.match(other)).toBeUndefined()
  })
})
