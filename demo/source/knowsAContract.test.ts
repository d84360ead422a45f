import { describe, expect, it } from 'vitest'
import { createSourceRegistry } from '../../src/sources/createSourceRegistry.js'
import { artifact, call, devnetRegistry } from './testCalls.js'
import { knowsAContract } from './knowsAContract.js'

// When the page asks the in-browser daemon for the source-level trace: only when its sources know a
// contract the transaction ran (the devnet's build-info as the page's sources).

const registry = devnetRegistry()
const contract = artifact
const TOKEN = '0x00000000000000000000000000000000000000b2'
const EOA = '0x00000000000000000000000000000000000000c3'
const RAW = '0x00000000000000000000000000000000000000e5'
const NEW = '0x00000000000000000000000000000000000000f6'

describe('knowsAContract', () => {
  it('a frame whose code matches, directly, through a delegation or as a creation’s output; a creation’s init code', () => {
    const codes: Record<string, string> = { [TOKEN]: contract('Token').deployedBytecode, [RAW]: '0x6003565b' }
    const codeOf = (a: string) => codes[a]
    expect(knowsAContract(call('CALL', TOKEN, '0xa9059cbb'), registry, codeOf)).toBe(true)
    expect(knowsAContract(call('CALL', RAW, '0x'), registry, codeOf)).toBe(false)
    // Nested below code it does not know.
    expect(knowsAContract(call('CALL', RAW, '0x', [call('CALL', TOKEN, '0x70a08231')]), registry, codeOf)).toBe(true)
    // An EIP-7702 delegation to the Token.
    codes[EOA] = `0xef0100${TOKEN.slice(2)}`
    expect(knowsAContract(call('CALL', EOA, '0x'), registry, codeOf)).toBe(true)
    // A contract created (gone from the state since): its creation's output.
    const created = { ...call('CREATE', NEW, '0x6080'), output: contract('Child').deployedBytecode }
    expect(knowsAContract(call('CALL', RAW, '0x', [created, call('CALL', NEW, '0x')]), registry, codeOf)).toBe(true)
    // A creation transaction: the Token's creation bytecode and its argument.
    expect(
      knowsAContract(call('CREATE', NEW, `${contract('Token').bytecode}${'00'.repeat(32)}`), registry, codeOf),
    ).toBe(true)
    expect(knowsAContract(call('CREATE', NEW, '0x6080'), registry, codeOf)).toBe(false)
  })

  it('nothing without sources', () => {
    const codeOf = () => contract('Token').deployedBytecode as string
    expect(knowsAContract(call('CALL', TOKEN, '0xa9059cbb'), createSourceRegistry(), codeOf)).toBe(false)
  })
})
