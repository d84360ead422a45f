import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { type NamedSourceFile, readSourceFiles } from '../sources/readSourceFiles.js'
import type { SourceContract } from '../sources/types.js'

/** Every .json file under `dir`, sorted (a dot-directory and node_modules are skipped). */
function jsonFiles(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('.') || name === 'node_modules') continue
    const path = join(dir, name)
    if (statSync(path).isDirectory()) out.push(...jsonFiles(path))
    else if (name.endsWith('.json')) out.push(path)
  }
  return out
}

const named = (path: string): NamedSourceFile => ({ name: path, text: readFileSync(path, 'utf8') })

/**
 * `--sources PATH`: the compiled contracts of a build output, as the source tracer reads them. Which
 * files, this picks from the disk; what they are, the browser's parser says (readSourceFiles, shared
 * with `config.sources` and the explorer's dropped files):
 * - a file: solc standard-JSON output, or `{input, output}` (a Hardhat build-info);
 * - a Hardhat project's `artifacts/` (or the project): every `build-info/*.json` in it;
 * - a Foundry `out/` (or the project): each `<File>.sol/<Name>.json` artifact, with its sources
 *   from the `build-info/` beside them (by solc source id), else its own file read from disk.
 */
export function readSourcesDir(path: string): SourceContract[] {
  const at = resolve(path)
  if (!existsSync(at)) throw new Error(`--sources ${path}: no such file or directory`)
  if (!statSync(at).isDirectory()) return parsed(path, [named(at)])
  for (const sub of ['artifacts', 'out']) {
    if (existsSync(join(at, sub)) && statSync(join(at, sub)).isDirectory()) return readSourcesDir(join(at, sub))
  }
  const files = jsonFiles(at)
  const buildInfos = files.filter((f) => basename(dirname(f)) === 'build-info').map(named)
  const artifacts = files.filter((f) => basename(dirname(f)).endsWith('.sol')).map(named)
  const outputs = (f: NamedSourceFile) => (JSON.parse(f.text) as { output?: { contracts?: unknown } }).output?.contracts
  // Hardhat: its build-infos carry the whole compilation (its per-contract artifacts no source maps).
  if (buildInfos.length > 0 && buildInfos.every((f) => outputs(f) !== undefined)) return parsed(path, buildInfos)
  // Foundry: an artifact's source text, where no build-info has it, from the project (out/'s parent).
  const project = dirname(at)
  const sourceText = (file: string) => {
    const onDisk = join(project, file)
    return existsSync(onDisk) ? readFileSync(onDisk, 'utf8') : undefined
  }
  if (artifacts.length > 0) return parsed(path, [...artifacts, ...buildInfos], sourceText)
  throw new Error(`--sources ${path}: no solc standard-JSON output, Hardhat build-info or Foundry artifacts found`)
}

/** The contracts of the files picked; none read: an error saying why. */
function parsed(
  path: string,
  files: NamedSourceFile[],
  sourceText?: (file: string) => string | undefined,
): SourceContract[] {
  const { contracts, read, unread } = readSourceFiles(files, sourceText ? { sourceText } : {})
  if (read.length === 0 && unread.length > 0) throw new Error(`--sources ${path}: ${unread[0]!.why}`)
  return contracts
}
