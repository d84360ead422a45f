import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, parse, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { CompiledWasmModule } from '../wasm/createWasmEngine.js'
import { compileWasmEvm } from './compileWasmEvm.js'

/** The nearest ancestor of `from` holding the wasm EVM's sources (src/wasm/assembly), if any. */
function sourceRoot(from: string): string | undefined {
  for (let dir = from; dir !== parse(dir).root; dir = dirname(dir))
    if (existsSync(join(dir, 'src/wasm/assembly/index.ts')) && existsSync(join(dir, 'package.json'))) return dir
  return undefined
}

/** dist/wasm/evm.wasm of the `dist` directory `from` is in (the published package, `npm run build`). */
function builtModule(from: string): string | undefined {
  const parts = from.split(sep)
  const at = parts.lastIndexOf('dist')
  if (at < 0) return undefined
  const path = join(parts.slice(0, at + 1).join(sep) || sep, 'wasm/evm.wasm')
  return existsSync(path) ? path : undefined
}

/**
 * The root's dist/wasm/evm.wasm when it was built after every source of it was last changed (a fresh
 * clone's `npm ci` builds it; an edited source makes it stale): the sources need no compiling then.
 */
function freshBuild(root: string): string | undefined {
  const built = join(root, 'dist/wasm/evm.wasm')
  if (!existsSync(built)) return undefined
  const assembly = join(root, 'src/wasm/assembly')
  const sources = [join(root, 'src/wasm/asconfig.json'), ...readdirSync(assembly).map((name) => join(assembly, name))]
  const builtAt = statSync(built).mtimeMs
  return sources.every((source) => statSync(source).mtimeMs <= builtAt) ? built : undefined
}

let loaded: Promise<WebAssembly.Module> | undefined

/**
 * The wasm EVM's compiled module for this process (once): from a build, dist/wasm/evm.wasm (`npm run
 * build` runs build:wasm); from the sources (tsx, the tests), the root's dist/wasm/evm.wasm if it is
 * newer than its sources, else compiled from src/wasm/assembly with the assemblyscript package (cached
 * by source hash, src/node/compileWasmEvm.ts), else the root's build however old. Rejects when neither
 * is there.
 */
export function loadWasmEvmModule(): Promise<CompiledWasmModule> {
  loaded ??= (async () => {
    const here = dirname(fileURLToPath(import.meta.url))
    const built = builtModule(here)
    if (built !== undefined) return WebAssembly.compile(readFileSync(built))
    const root = sourceRoot(here)
    if (root === undefined) throw new Error(`no dist/wasm/evm.wasm and no wasm EVM sources above ${here}`)
    const fresh = freshBuild(root)
    if (fresh !== undefined) return WebAssembly.compile(readFileSync(fresh))
    try {
      return await WebAssembly.compile((await compileWasmEvm(root)) as Uint8Array<ArrayBuffer>)
    } catch (err) {
      const fallback = join(root, 'dist/wasm/evm.wasm')
      if (existsSync(fallback)) return WebAssembly.compile(readFileSync(fallback))
      throw err
    }
  })()
  return loaded
}
