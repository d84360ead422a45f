import { describe, expect, it } from 'vitest'
import type { OpcodeStep } from '../hooks.js'
import { createCallTraceRecorder } from './createCallTraceRecorder.js'

// The recorder's KECCAK256 preimages (for the source tracer's storage names): the bytes hashed, read
// from memory at the op (offset and size from the stack), paired with the hash the next op sees.

const step = (pc: number, op: number, stack: bigint[], memory: Uint8Array): OpcodeStep => ({
  pc,
  op,
  opName: op === 0x20 ? 'KECCAK256' : 'POP',
  gas: 1000n,
  cost: 30n,
  depth: 1,
  stack,
  memory,
  address: '0x00000000000000000000000000000000000000aa',
  refund: 0n,
  returnData: new Uint8Array(0),
})

function run(preimages: boolean, hashes: { offset: number; size: number; hash: bigint }[], memory: Uint8Array) {
  const { hooks, arena } = createCallTraceRecorder({ logs: false, steps: true, preimages })
  hooks.onEnter!({
    depth: 0,
    kind: 'CALL',
    from: '0x00000000000000000000000000000000000000bb',
    to: '0x00000000000000000000000000000000000000aa',
    input: new Uint8Array(0),
    gas: 100_000n,
    value: 0n,
    precompile: false,
  })
  let pc = 0
  for (const h of hashes) {
    hooks.onOpcode!(step(pc++, 0x20, [BigInt(h.size), BigInt(h.offset)], memory))
    hooks.onOpcode!(step(pc++, 0x50, [h.hash], memory)) // the hash on the stack after it
  }
  hooks.onExit!({ depth: 0, output: new Uint8Array(0), gasUsed: 0n, reverted: false })
  return arena
}

describe('createCallTraceRecorder: KECCAK256 preimages', () => {
  const memory = Uint8Array.from({ length: 96 }, (_, i) => i)

  it('keeps 32- to 64-byte inputs with their hash, once each; longer or shorter ones are not kept', () => {
    const arena = run(
      true,
      [
        { offset: 0, size: 64, hash: 1n },
        { offset: 32, size: 32, hash: 2n },
        { offset: 0, size: 64, hash: 1n }, // the same again
        { offset: 0, size: 96, hash: 3n },
        { offset: 0, size: 20, hash: 4n },
        { offset: 80, size: 40, hash: 5n }, // past memory's end: zeros
      ],
      memory,
    )
    expect(arena.preimages.map((p) => [p.hash, [...p.input]])).toEqual([
      [1n, [...memory.subarray(0, 64)]],
      [2n, [...memory.subarray(32, 64)]],
      [5n, [...memory.subarray(80, 96), ...new Uint8Array(24)]],
    ])
    expect(arena.vmFrames[0]!.ops.map((o) => o.op)).toEqual([
      0x20, 0x50, 0x20, 0x50, 0x20, 0x50, 0x20, 0x50, 0x20, 0x50, 0x20, 0x50,
    ])
  })

  it('records none unless asked', () => {
    expect(run(false, [{ offset: 0, size: 64, hash: 1n }], memory).preimages).toEqual([])
  })

  it('keeps at most 4096', () => {
    const many = Array.from({ length: 5000 }, (_, i) => ({ offset: 0, size: 64, hash: BigInt(i + 1) }))
    expect(run(true, many, memory).preimages.length).toBe(4096)
  })
})
