// npx tsx scripts/buildKeccakWasm.ts [--check]: compiles src/wasm/assembly/keccakModule.ts (Keccak-256
// alone, ~1.3 KB of WebAssembly) with the assemblyscript package into src/utils/keccakWasmBytes.ts, the
// module as base64 that src/utils/keccak256.ts compiles synchronously at its first hash. Committed, so
// that the product's hash needs no build step and no fetch (Node, a Web Worker and a page alike);
// `npm run build:wasm` runs this, and src/utils/keccak256.test.ts checks that the committed bytes are
// what the sources compile to. --check only compares.
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import asc from 'assemblyscript/asc'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const SOURCE = 'src/wasm/assembly/keccakModule.ts'
const TARGET = fileURLToPath(new URL('../src/utils/keccakWasmBytes.ts', import.meta.url))

/** The keccak module compiled (asc -O3, stub runtime, no assertions, the EVM's memory base). */
export async function compileKeccakWasm(): Promise<Uint8Array> {
  let wasm: Uint8Array | undefined
  const stderr = asc.createMemoryStream()
  const { error } = await asc.main(
    [SOURCE, '--baseDir', ROOT, '-O3', '--runtime', 'stub', '--noAssert', '--memoryBase', '65536', '-o', 'keccak.wasm'],
    {
      stderr,
      writeFile(name, contents) {
        if (name.endsWith('.wasm') && typeof contents !== 'string') wasm = contents
      },
    },
  )
  if (error || wasm === undefined) throw new Error(`asc failed: ${error?.message ?? 'no output'}\n${stderr.toString()}`)
  return wasm
}

/** src/utils/keccakWasmBytes.ts's text for these bytes. */
export function keccakWasmSource(wasm: Uint8Array): string {
  const base64 = Buffer.from(wasm).toString('base64')
  const lines = base64.match(/.{1,100}/g) ?? []
  return `// Written by scripts/buildKeccakWasm.ts from src/wasm/assembly/keccakModule.ts: do not edit.
/** Keccak-256 as a WebAssembly module (${wasm.length} bytes), base64. */
export const KECCAK_WASM_BASE64 =
${lines.map((line, i) => `  '${line}'${i === lines.length - 1 ? '' : ' +'}`).join('\n')}
`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = keccakWasmSource(await compileKeccakWasm())
  if (process.argv.includes('--check')) {
    if (readFileSync(TARGET, 'utf8') !== text) {
      console.error('src/utils/keccakWasmBytes.ts is stale: run npx tsx scripts/buildKeccakWasm.ts')
      process.exit(1)
    }
  } else writeFileSync(TARGET, text)
}
