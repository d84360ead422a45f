import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { buildInfoSources, readFoundryArtifact } from '../sources/readFoundryArtifact.js'
import { readStandardJson } from '../sources/readStandardJson.js'
import type { SourceContract, SourceFile } from '../sources/types.js'

// biome-ignore lint/suspicious/noExplicitAny: build outputs are untyped JSON, read field by field and checked where used
type Json = Record<string, any>

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

const readJson = (path: string): Json => JSON.parse(readFileSync(path, 'utf8')) as Json

/**
 * `--sources PATH`: the compiled contracts of a build output, as the source tracer reads them.
 * - a file: solc standard-JSON output, or `{input, output}` (a Hardhat build-info);
 * - a Hardhat project's `artifacts/` (or the project): every `build-info/*.json` in it;
 * - a Foundry `out/` (or the project): each `<File>.sol/<Name>.json` artifact, with its sources
 *   from the `build-info/` beside them (by solc source id), else its own file read from disk.
 */
export function readSourcesDir(path: string): SourceContract[] {
  const at = resolve(path)
  if (!existsSync(at)) throw new Error(`--sources ${path}: no such file or directory`)
  if (!statSync(at).isDirectory()) return fromStandardJsonFile(at)
  for (const sub of ['artifacts', 'out']) {
    if (existsSync(join(at, sub)) && statSync(join(at, sub)).isDirectory()) return readSourcesDir(join(at, sub))
  }
  const files = jsonFiles(at)
  const buildInfos = files.filter((f) => basename(dirname(f)) === 'build-info')
  const artifacts = files.filter((f) => basename(dirname(f)).endsWith('.sol'))
  const hardhat = buildInfos.length > 0 && buildInfos.every((f) => readJson(f).output?.contracts !== undefined)
  if (hardhat) return buildInfos.flatMap(fromStandardJsonFile)
  if (artifacts.length > 0) return readFoundry(artifacts, buildInfos.map(readJson), dirname(at))
  throw new Error(`--sources ${path}: no solc standard-JSON output, Hardhat build-info or Foundry artifacts found`)
}

function fromStandardJsonFile(path: string): SourceContract[] {
  const json = readJson(path)
  if (json.output && json.input) return readStandardJson(json.output, json.input)
  return readStandardJson(json, json.input)
}

function readFoundry(artifacts: string[], buildInfos: Json[], project: string): SourceContract[] {
  const infos = buildInfos.map(buildInfoSources)
  const out: SourceContract[] = []
  for (const path of artifacts) {
    const artifact = readJson(path)
    const file: string | undefined = artifact.ast?.absolutePath
    const id: number | undefined = typeof artifact.id === 'number' ? artifact.id : undefined
    // The build-info whose source `id` is this artifact's file.
    let sources = infos.find((s) => id !== undefined && file !== undefined && s.get(id)?.path === file)
    if (!sources) {
      sources = new Map<number, SourceFile>()
      if (id !== undefined && file !== undefined) {
        const onDisk = join(project, file)
        sources.set(id, { path: file, content: existsSync(onDisk) ? readFileSync(onDisk, 'utf8') : undefined })
      }
    }
    const contract = readFoundryArtifact(artifact, sources, basename(path, '.json'))
    if (contract) out.push(contract)
  }
  return out
}
