import { keccak_256 } from '@noble/hashes/sha3.js'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { compileKeccakWasm, keccakWasmSource } from '../../scripts/buildKeccakWasm.js'
import { keccak256, keccakInWasm } from './keccak256.js'
import { KECCAK_WASM_BASE64 } from './keccakWasmBytes.js'

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')

describe('keccak256 (WebAssembly)', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.resetModules()
  })

  it('runs in WebAssembly here', () => {
    expect(keccakInWasm()).toBe(true)
  })

  it('equals @noble/hashes on every length 0..700 (across the 136-byte rate), on random bytes', () => {
    let seed = 20261127
    const next = () => {
      seed = (seed * 1103515245 + 12345) >>> 0
      return seed >>> 24
    }
    for (let n = 0; n <= 700; n++) {
      const data = Uint8Array.from({ length: n }, next)
      expect(hex(keccak256(data)), `length ${n}`).toBe(hex(keccak_256(data)))
    }
  })

  it('the known answers: empty input, and a megabyte (the memory grown for it, then reused)', () => {
    expect(hex(keccak256(new Uint8Array()))).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470')
    const big = new Uint8Array(1 << 20).fill(0xab)
    expect(hex(keccak256(big))).toBe(hex(keccak_256(big)))
    expect(hex(keccak256(Uint8Array.of(1, 2, 3)))).toBe(hex(keccak_256(Uint8Array.of(1, 2, 3))))
  })

  it('answers a fresh array each time, not a view of the module’s memory', () => {
    const a = keccak256(Uint8Array.of(1))
    const b = keccak256(Uint8Array.of(2))
    expect(hex(a)).toBe(hex(keccak_256(Uint8Array.of(1))))
    expect(a.buffer).not.toBe(b.buffer)
    expect(a.byteLength).toBe(32)
  })

  it('where WebAssembly cannot compile (a page whose CSP forbids it), @noble/hashes gives the same hash', async () => {
    vi.stubGlobal('WebAssembly', {
      Module: () => {
        throw new Error('CompileError: WebAssembly.Module(): Refused to compile')
      },
    })
    const fresh = (await import('./keccak256.js')) as typeof import('./keccak256.js')
    expect(fresh.keccakInWasm()).toBe(false)
    expect(hex(fresh.keccak256(Uint8Array.of(7, 7)))).toBe(hex(keccak_256(Uint8Array.of(7, 7))))
  })

  it('keccakWasmBytes.ts is what src/wasm/assembly/keccakModule.ts compiles to (run npx tsx scripts/buildKeccakWasm.ts)', async () => {
    const wasm = await compileKeccakWasm()
    expect(Buffer.from(KECCAK_WASM_BASE64, 'base64').equals(Buffer.from(wasm))).toBe(true)
    expect(keccakWasmSource(wasm)).toContain(KECCAK_WASM_BASE64.slice(0, 100))
  }, 60_000)
})
