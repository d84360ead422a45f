import { describe, expect, it } from 'vitest'
import { artifact, call, devnetRegistry } from './testCalls.js'
import { frameSources } from './frameSources.js'

// What each frame runs, for the source level: the devnet's committed build-info as the page's
// sources, the deployed code of its artifacts as the transaction found it.

const registry = devnetRegistry()
const deployed = (name: string) => artifact(name).deployedBytecode
const creationCode = (name: string) => artifact(name).bytecode
const SCENARIOS = '0x00000000000000000000000000000000000000a1'
const TOKEN = '0x00000000000000000000000000000000000000b2'
const EOA = '0x00000000000000000000000000000000000000c3'
const CHILD = '0x00000000000000000000000000000000000000d4'
const RAW = '0x00000000000000000000000000000000000000e5'
const code: Record<string, string> = {
  [SCENARIOS]: deployed('Scenarios'),
  [TOKEN]: deployed('Token'),
  [EOA]: `0xef0100${SCENARIOS.slice(2)}`, // EIP-7702: delegated to Scenarios
  [RAW]: '0x6003565b',
}

describe('frameSources', () => {
  it('names each frame by its matched contract and ABI, follows a delegation, takes a created contract’s code from its creation, locates a constructor by its creation bytecode, and leaves init code and code it does not know without lines', () => {
    const tree = call('CALL', SCENARIOS, '0xf83d08ba', [
      call('CALL', TOKEN, '0xa9059cbb'),
      call('DELEGATECALL', EOA, '0xd09de08a'),
      { ...call('CREATE', CHILD, '0x6080'), output: deployed('Child') },
      call('CALL', CHILD, '0x60fe47b1'), // set(uint256) on the child created above (gone from the state since)
      call('CALL', RAW, '0x12345678'),
      // Child's creation bytecode and its constructor's arguments (v = 42, fail = false): its own init code.
      {
        ...call('CREATE2', CHILD, `${creationCode('Child')}${'2a'.padStart(64, '0')}${'0'.repeat(64)}`),
        output: deployed('Child'),
      },
    ])
    const frames = frameSources({
      tree,
      entries: [
        [0, 1, SCENARIOS],
        [10, 2, TOKEN],
        [20, 2, SCENARIOS], // DELEGATECALL: the caller's storage
        [30, 2, CHILD],
        [35, 2, CHILD],
        [40, 2, RAW],
        [50, 2, CHILD],
      ],
      codeOf: (a) => code[a],
      registry,
      decode: (input) => (input.startsWith('0x12345678') ? 'known' : undefined),
    })
    expect(frames.map((f) => [f.label, f.locator !== undefined])).toEqual([
      ['Scenarios.0xf83d08ba', true],
      ['Token.transfer', true],
      ['Scenarios.increment', true],
      ['new Child', false],
      ['Child.set', true],
      ['0x0000…00e5.known', false],
      ['new Child', true],
    ])
    expect(frames[1]!.text?.('Token.sol')).toContain('contract Token')
    // The constructor's lines, by the creation bytecode's source map.
    const child = frames[6]!
    const source = child.text!('Scenarios.sol')!
    const lines = new Set<number>()
    for (let pc = 0; pc < (creationCode('Child').length - 2) / 2; pc++) {
      const at = child.locator!.at(pc)
      if (at) lines.add(at.line)
    }
    const lineOf = (t: string) => source.slice(0, source.indexOf(t)).split('\n').length
    expect(lines).toContain(lineOf('require(!fail, "child constructor reverted")'))
    expect(lines).toContain(lineOf('emit Born(msg.sender, v)'))
  })
})
