// The product's Keccak-256: every hash edgetrace takes (trie nodes of the proofs it verifies, code
// hashes, header and transaction hashes, the EVM's KECCAK256 through Common's customCrypto) goes
// through keccak256() here. It runs in WebAssembly (src/wasm/assembly/keccak.ts, 64-bit lanes: 7-10×
// @noble/hashes' JavaScript on this machine), a 1.3 KB module compiled synchronously at the first hash
// — small enough for a page's main thread too. Where WebAssembly cannot be compiled (a page whose CSP
// leaves out 'wasm-unsafe-eval', a runtime without it) the same hash comes from @noble/hashes.
import { keccak_256 } from '@noble/hashes/sha3.js'
import { KECCAK_WASM_BASE64 } from './keccakWasmBytes.js'

/** The keccak module's exports (scripts/buildKeccakWasm.ts). */
type KeccakExports = {
  memory: { buffer: ArrayBuffer }
  input(length: number): number
  hash(length: number): number
}

// undefined: not tried yet; null: WebAssembly unavailable here, @noble/hashes answers.
let wasm: KeccakExports | null | undefined
// A view of the module's memory, made again only when growing the memory replaced its buffer.
let view = new Uint8Array(0)

/** The keccak module instantiated, or null where WebAssembly cannot be compiled. */
function instantiate(): KeccakExports | null {
  try {
    const text = atob(KECCAK_WASM_BASE64)
    const bytes = new Uint8Array(text.length)
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i)
    const module = new WebAssembly.Module(bytes)
    return new WebAssembly.Instance(module, {}).exports as unknown as KeccakExports
  } catch {
    return null
  }
}

/** Keccak-256 (Ethereum's, the pre-standard padding) of `data`: 32 new bytes. */
export function keccak256(data: Uint8Array): Uint8Array {
  if (wasm === undefined) wasm = instantiate()
  if (wasm === null) return keccak_256(data)
  const at = wasm.input(data.length)
  // After input(): it may have grown the memory, which replaces its buffer.
  if (view.buffer !== wasm.memory.buffer) view = new Uint8Array(wasm.memory.buffer)
  view.set(data, at)
  const out = wasm.hash(data.length)
  return view.slice(out, out + 32)
}

/** Whether keccak256 runs in WebAssembly here (false: @noble/hashes). */
export function keccakInWasm(): boolean {
  if (wasm === undefined) wasm = instantiate()
  return wasm !== null
}
