import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '../..')
/** The AssemblyScript sources of the wasm EVM prototype and their asc configuration (`npm run build:wasm`). */
const SOURCES = join(ROOT, 'src/wasm/assembly')
const CONFIG = join(ROOT, 'src/wasm/asconfig.json')

/** The installed assemblyscript's version (read from its package.json: loading the compiler takes a second). */
function ascVersion(): string {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'node_modules/assemblyscript/package.json'), 'utf8')) as {
    version: string
  }
  return pkg.version
}

/**
 * Where compiled modules are kept between test files and runs: `EDGETRACE_WASM_CACHE`, else
 * node_modules/.cache/edgetrace-wasm (removed with node_modules: a fresh install compiles afresh).
 */
export const defaultWasmCacheDir = (): string =>
  process.env.EDGETRACE_WASM_CACHE ?? join(ROOT, 'node_modules/.cache/edgetrace-wasm')

/**
 * The wasm EVM prototype compiled from src/wasm/assembly by the assemblyscript compiler's API, with
 * the `release` target of src/wasm/asconfig.json (what `npm run build:wasm` writes to
 * dist/wasm/evm.wasm), so that tests need no build step. Cached on disk under `cacheDir`, keyed by
 * the hash of asc's version, the configuration and every source: asc takes 3-5 s at -O3 (more on
 * a busy machine); it is loaded only on a miss.
 */
export async function compileWasmEvm(cacheDir: string = defaultWasmCacheDir()): Promise<Uint8Array> {
  const hash = createHash('sha256').update(ascVersion()).update(readFileSync(CONFIG))
  for (const file of readdirSync(SOURCES).sort()) hash.update(file).update(readFileSync(join(SOURCES, file)))
  const cached = join(cacheDir, `${hash.digest('hex').slice(0, 32)}.wasm`)
  try {
    return new Uint8Array(readFileSync(cached))
  } catch {}
  const { default: asc } = await import('assemblyscript/asc')
  let wasm: Uint8Array | undefined
  const stderr = asc.createMemoryStream()
  const { error } = await asc.main(
    ['--config', CONFIG, '--target', 'release', '--outFile', 'evm.wasm', '--baseDir', ROOT],
    {
      stderr,
      writeFile(name, contents) {
        if (name.endsWith('.wasm') && typeof contents !== 'string') wasm = contents
      },
    },
  )
  if (error || wasm === undefined) throw new Error(`asc failed: ${error?.message ?? 'no output'}\n${stderr.toString()}`)
  mkdirSync(cacheDir, { recursive: true })
  const partial = `${cached}.${process.pid}`
  writeFileSync(partial, wasm)
  renameSync(partial, cached)
  return wasm
}
