import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '../..')
/** Set by the node project's global setup (test/setup/compileSources.ts) to this run's compiled copy of src/ and tools/. */
const COMPILED = process.env.EDGETRACE_COMPILED_SOURCES

/**
 * The arguments after `node` that run one of the project's TypeScript entry points (a path from the
 * project's root, e.g. `src/node/cli.ts`): its compiled copy when the run has one (its one-file
 * bundle where there is one), which starts in under half the time, else the source through tsx, as
 * `npm start` runs it.
 */
export function nodeArgsFor(entry: string): string[] {
  if (COMPILED === undefined) return ['--import', 'tsx', join(ROOT, entry)]
  // The CLI's one-file bundle, as the package's bin runs it (scripts/bundleNode.ts).
  const bundle = join(COMPILED, entry.replace(/\.ts$/, '.bundle.js'))
  return [existsSync(bundle) ? bundle : join(COMPILED, entry.replace(/\.ts$/, '.js'))]
}

/** `node` and its arguments running the edgetrace CLI (see nodeArgsFor). */
export const CLI_ARGS: readonly string[] = nodeArgsFor('src/node/cli.ts')
