import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'

/** The AssemblyScript sources of the wasm EVM and their asc configuration, under the project's root. */
const sourcesOf = (root: string) => join(root, 'src/wasm/assembly')
const configOf = (root: string) => join(root, 'src/wasm/asconfig.json')

/**
 * The wasm EVM (src/wasm/assembly) compiled by the assemblyscript compiler's API, with the `release`
 * target of src/wasm/asconfig.json (what `npm run build:wasm` writes to dist/wasm/evm.wasm): what
 * runs from the sources (`npm start`, the tests) uses, so that no build step is needed and no stale
 * build is run. Cached on disk under `cacheDir` (default node_modules/.cache/edgetrace-wasm, or
 * `EDGETRACE_WASM_CACHE`), keyed by the hash of asc's version, the configuration and every source:
 * asc takes 3-5 s at -O3; it is loaded only on a miss. Needs the assemblyscript package (a
 * development dependency).
 */
export async function compileWasmEvm(root: string, cacheDir?: string): Promise<Uint8Array> {
  const require = createRequire(join(root, 'package.json'))
  const ascPackage = require.resolve('assemblyscript/package.json')
  const { version } = JSON.parse(readFileSync(ascPackage, 'utf8')) as { version: string }
  const hash = createHash('sha256')
    .update(version)
    .update(readFileSync(configOf(root)))
  for (const file of readdirSync(sourcesOf(root)).sort())
    hash.update(file).update(readFileSync(join(sourcesOf(root), file)))
  const dir = cacheDir ?? process.env.EDGETRACE_WASM_CACHE ?? join(root, 'node_modules/.cache/edgetrace-wasm')
  const cached = join(dir, `${hash.digest('hex').slice(0, 32)}.wasm`)
  try {
    return new Uint8Array(readFileSync(cached))
  } catch {}
  // Not a literal: the Node bundles (scripts/bundleNode.ts) leave the compiler out.
  const ascModule = 'assemblyscript/asc'
  const { default: asc } = (await import(ascModule)) as typeof import('assemblyscript/asc')
  let wasm: Uint8Array | undefined
  const stderr = asc.createMemoryStream()
  const { error } = await asc.main(
    ['--config', configOf(root), '--target', 'release', '--outFile', 'evm.wasm', '--baseDir', root],
    {
      stderr,
      writeFile(name, contents) {
        if (name.endsWith('.wasm') && typeof contents !== 'string') wasm = contents
      },
    },
  )
  if (error || wasm === undefined) throw new Error(`asc failed: ${error?.message ?? 'no output'}\n${stderr.toString()}`)
  mkdirSync(dir, { recursive: true })
  const partial = `${cached}.${process.pid}`
  writeFileSync(partial, wasm)
  renameSync(partial, cached)
  return wasm
}
