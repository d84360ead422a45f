import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { build } from 'vite'

/** The explorer page as `npm run build` builds it, into a new temporary directory (the caller removes it): its path. */
export async function buildExplorerPage(): Promise<string> {
  const root = resolve(import.meta.dirname, '../..')
  const dir = mkdtempSync(join(tmpdir(), 'edgetrace-explorer-'))
  await build({
    configFile: resolve(root, 'vite.config.ts'),
    root,
    logLevel: 'warn',
    build: { outDir: dir, emptyOutDir: true },
  })
  return dir
}
