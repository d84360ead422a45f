import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * Where the explorer page's build is (`npm run build` writes dist/explorer; npm install runs it):
 * next to the compiled CLI (dist/node → dist/explorer) or, run from source, the project's dist/.
 */
export function explorerDir(): string | undefined {
  for (const relative of ['../explorer/', '../../dist/explorer/']) {
    const dir = fileURLToPath(new URL(relative, import.meta.url))
    if (existsSync(`${dir}index.html`)) return dir
  }
  return undefined
}
