import { fromParts } from './readStandardJson.js'
import type { SourceContract, SourceFile } from './types.js'

// biome-ignore lint/suspicious/noExplicitAny: Sourcify's answer is untyped JSON, read field by field and checked where used
type Json = Record<string, any>

/** The fields a lookup asks Sourcify's APIv2 for (`GET /v2/contract/{chainId}/{address}?fields=…`). */
export const SOURCIFY_FIELDS = [
  'abi',
  'compilation',
  'sources',
  'sourceIds',
  'runtimeBytecode',
  'storageLayout',
] as const

/**
 * A verified contract as Sourcify's APIv2 describes it (`/v2/contract/{chainId}/{address}` with
 * SOURCIFY_FIELDS), in the model the registry matches: the recompiled runtime code (immutables
 * zero, libraries unlinked) with its `immutableReferences` and `linkReferences` as masked ranges,
 * its source map, ABI and storage layout, and the sources by solc source id (`sourceIds`; without it
 * the ids solc gives, the source units in sorted order). Undefined when the answer has no runtime
 * code. Nothing here is trusted: the caller matches the code against the code that ran.
 */
export function readSourcifyContract(answer: Json): SourceContract | undefined {
  if (!answer || typeof answer !== 'object') return undefined
  const runtime: Json | undefined = answer.runtimeBytecode
  const object = runtime?.recompiledBytecode ?? runtime?.onchainBytecode
  if (typeof object !== 'string') return undefined
  const given: Json = answer.sources && typeof answer.sources === 'object' ? answer.sources : {}
  const ids: Json = answer.sourceIds && typeof answer.sourceIds === 'object' ? answer.sourceIds : {}
  const sources = new Map<number, SourceFile>()
  const paths = Object.keys(given).sort()
  for (const [i, path] of paths.entries()) {
    const id = typeof ids[path]?.id === 'number' ? (ids[path].id as number) : i
    const content = given[path]?.content
    sources.set(id, { path, content: typeof content === 'string' ? content : undefined })
  }
  const fqn: unknown = answer.compilation?.fullyQualifiedName
  const colon = typeof fqn === 'string' ? fqn.lastIndexOf(':') : -1
  const name =
    typeof answer.compilation?.name === 'string'
      ? (answer.compilation.name as string)
      : colon >= 0
        ? (fqn as string).slice(colon + 1)
        : 'unknown'
  const file = colon >= 0 ? (fqn as string).slice(0, colon) : (paths[0] ?? '')
  const deployed = {
    object,
    sourceMap: runtime?.sourceMap,
    immutableReferences: runtime?.immutableReferences,
  }
  const contract = fromParts(name, file, deployed, answer.abi, answer.storageLayout ?? undefined, sources)
  if (!contract) return undefined
  // Library addresses: `linkReferences` ({file: {library: [{start, length}]}}) masked as solc's placeholders are.
  const links: { start: number; length: number }[] = []
  for (const byLib of Object.values<Json>(runtime?.linkReferences ?? {})) {
    for (const list of Object.values<unknown>(byLib ?? {})) {
      if (!Array.isArray(list)) continue
      for (const r of list as Json[])
        if (typeof r?.start === 'number' && typeof r?.length === 'number')
          links.push({ start: r.start, length: r.length })
    }
  }
  if (links.length > 0) {
    const seen = new Set(contract.masked.map((r) => r.start))
    for (const r of links) {
      if (!seen.has(r.start)) contract.masked.push(r)
      contract.runtime.fill(0, r.start, r.start + r.length)
    }
    contract.masked.sort((a, b) => a.start - b.start)
  }
  return contract
}
