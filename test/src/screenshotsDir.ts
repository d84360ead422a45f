import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

/**
 * Where a browser test's screenshots go: EDGETRACE_SCREENSHOTS (from the repository's root; `npm run
 * screenshots` gives docs/screenshots), else a new temporary directory. Created if missing.
 */
export function screenshotsDir(): string {
  const env = process.env.EDGETRACE_SCREENSHOTS
  const dir = env ? resolve(import.meta.dirname, '../..', env) : mkdtempSync(join(tmpdir(), 'edgetrace-shots-'))
  mkdirSync(dir, { recursive: true })
  return dir
}
