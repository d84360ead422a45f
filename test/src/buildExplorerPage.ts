import { createHash } from 'node:crypto'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { build } from 'vite'

const ROOT = resolve(import.meta.dirname, '../..')

/** What the page's build reads: its HTML, its code (demo, src, worker), the config and the locked dependencies. */
const INPUTS = ['index.html', 'vite.config.ts', 'tsconfig.json', 'package-lock.json', 'demo', 'src', 'worker']

/** A hash of every file the explorer page is built from under `root` (paths and contents); another build of the same is the same page. */
export function explorerInputsKey(root: string = ROOT): string {
  const hash = createHash('sha256')
  const add = (path: string) => {
    let entries: string[]
    try {
      entries = statSync(join(root, path)).isDirectory()
        ? readdirSync(join(root, path), { recursive: true, encoding: 'utf8' })
            .map((f) => join(path, f))
            .filter((f) => statSync(join(root, f)).isFile())
        : [path]
    } catch {
      return // not there: nothing of it goes in
    }
    for (const f of entries.sort())
      hash
        .update(`${f}\0`)
        .update(readFileSync(join(root, f)))
        .update('\0')
  }
  for (const input of INPUTS) add(input)
  return hash.digest('hex').slice(0, 32)
}

/**
 * The explorer page as `npm run build` builds it, into a new temporary directory (the caller removes it): its path.
 * Built once for its inputs (explorerInputsKey) and copied from `cacheDir` after that: each explorer
 * test file built it again (6 s, 4 s of CPU, on the 2-core machine).
 */
export async function buildExplorerPage(
  cacheDir: string = process.env.EDGETRACE_EXPLORER_CACHE ?? join(ROOT, 'node_modules/.cache/edgetrace-explorer'),
): Promise<string> {
  const key = explorerInputsKey()
  const built = join(cacheDir, key)
  if (!isDirectory(built)) {
    mkdirSync(cacheDir, { recursive: true })
    const partial = mkdtempSync(join(cacheDir, `${key}.partial-`))
    await build({
      configFile: resolve(ROOT, 'vite.config.ts'),
      root: ROOT,
      logLevel: 'warn',
      build: { outDir: partial, emptyOutDir: true },
    })
    try {
      // Whole or not at all: a file building the same page at the same time keeps the first.
      renameSync(partial, built)
    } catch {
      rmSync(partial, { recursive: true, force: true })
    }
    pruneOlderThanAnHour(cacheDir, key)
  }
  const dir = mkdtempSync(join(tmpdir(), 'edgetrace-explorer-'))
  cpSync(built, dir, { recursive: true })
  return dir
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

/** Builds of other inputs (sources since edited) go once they are an hour old. */
function pruneOlderThanAnHour(cacheDir: string, keep: string) {
  for (const entry of readdirSync(cacheDir)) {
    if (entry === keep) continue
    const path = join(cacheDir, entry)
    try {
      if (Date.now() - statSync(path).mtimeMs > 3_600_000) rmSync(path, { recursive: true, force: true })
    } catch {
      // Removed by another file meanwhile.
    }
  }
}
