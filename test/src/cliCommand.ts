import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '../..')
/** Set by the node project's global setup (test/setup/compileSources.ts) to this run's compiled copy of src/ and tools/. */
const COMPILED = process.env.EDGETRACE_COMPILED_SOURCES

/**
 * The arguments after `node` that run one of the project's TypeScript entry points (a path from the
 * project's root, e.g. `src/node/cli.ts`): its compiled copy when the run has one, which starts in
 * under half the time, else the source through tsx, as `npm start` runs it.
 */
export function nodeArgsFor(entry: string): string[] {
  return COMPILED !== undefined
    ? [join(COMPILED, entry.replace(/\.ts$/, '.js'))]
    : ['--import', 'tsx', join(ROOT, entry)]
}

/** `node` and its arguments running the edgetrace CLI (see nodeArgsFor). */
export const CLI_ARGS: readonly string[] = nodeArgsFor('src/node/cli.ts')
