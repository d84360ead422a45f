import { fromParts } from './readStandardJson.js'
import type { SourceContract, SourceFile } from './types.js'

// biome-ignore lint/suspicious/noExplicitAny: build outputs are untyped JSON, read field by field and checked where used
type Json = Record<string, any>

/**
 * One Foundry artifact (`out/<File>.sol/<Name>.json`): `deployedBytecode.{object, sourceMap,
 * immutableReferences}`, `bytecode.{object, sourceMap, linkReferences}` (the constructor's), `abi`, `storageLayout` when asked for, and `metadata.settings.compilationTarget`
 * for its source and name. `sources` are the compilation's files by solc id (from its build-info);
 * `name` is taken from the file name when the metadata does not say.
 */
export function readFoundryArtifact(
  artifact: Json,
  sources: Map<number, SourceFile>,
  fallbackName?: string,
): SourceContract | undefined {
  const metadata = typeof artifact.metadata === 'string' ? JSON.parse(artifact.metadata) : artifact.metadata
  const target = Object.entries<string>(metadata?.settings?.compilationTarget ?? {})[0]
  const file = target?.[0] ?? artifact.ast?.absolutePath ?? ''
  const name = target?.[1] ?? fallbackName ?? ''
  return fromParts(
    name,
    file,
    artifact.deployedBytecode,
    artifact.abi,
    artifact.storageLayout,
    sources,
    artifact.bytecode,
  )
}

/**
 * A Foundry build-info's sources by id: `source_id_to_path` (newer Foundry) or `output.sources[path].id`
 * (older ones and Hardhat), with the text from `input.sources`.
 */
export function buildInfoSources(buildInfo: Json): Map<number, SourceFile> {
  const out = new Map<number, SourceFile>()
  const text = (path: string) => {
    const content = buildInfo.input?.sources?.[path]?.content
    return typeof content === 'string' ? content : undefined
  }
  for (const [id, path] of Object.entries<string>(buildInfo.source_id_to_path ?? {}))
    out.set(Number(id), { path, content: text(path) })
  for (const [path, s] of Object.entries<Json>(buildInfo.output?.sources ?? {}))
    if (typeof s?.id === 'number' && !out.has(s.id)) out.set(s.id, { path, content: text(path) })
  return out
}
