import { immutableRanges, linkRanges, mergeRanges, parseBytecode } from './parseBytecode.js'
import { readCreationCode } from './readCreationCode.js'
import type { AbiEntry, SourceContract, SourceFile } from './types.js'

// biome-ignore lint/suspicious/noExplicitAny: build outputs are untyped JSON, read field by field and checked where used
type Json = Record<string, any>

/**
 * The contracts of one solc compilation: its standard-JSON output (`contracts`, `sources[file].id`)
 * and, when given, its standard-JSON input (the sources' text). A Hardhat build-info
 * (`{input, output}`) is the same pair. Contracts without runtime code (interfaces, abstract
 * contracts) are left out.
 */
export function readStandardJson(output: Json, input?: Json): SourceContract[] {
  if (!output || typeof output !== 'object' || typeof output.contracts !== 'object')
    throw new Error('not a solc standard-JSON output: no contracts')
  const sources = new Map<number, SourceFile>()
  for (const [path, s] of Object.entries<Json>(output.sources ?? {})) {
    if (typeof s?.id !== 'number') continue
    const content = input?.sources?.[path]?.content
    sources.set(s.id, { path, content: typeof content === 'string' ? content : undefined })
  }
  const out: SourceContract[] = []
  for (const [file, byName] of Object.entries<Json>(output.contracts)) {
    for (const [name, c] of Object.entries<Json>(byName ?? {})) {
      const contract = fromParts(
        name,
        file,
        c?.evm?.deployedBytecode,
        c?.abi,
        c?.storageLayout,
        sources,
        c?.evm?.bytecode,
      )
      if (contract) out.push(contract)
    }
  }
  return out
}

/**
 * A contract from its deployed-bytecode object (`{object, sourceMap, immutableReferences,
 * linkReferences}`), its creation-bytecode object when given (`{object, sourceMap, linkReferences}`:
 * readCreationCode) and the rest. Library addresses of a linked object (`linkReferences`) are zeroed
 * and masked as unlinked placeholders are.
 */
export function fromParts(
  name: string,
  file: string,
  deployed: Json | undefined,
  abi: unknown,
  storageLayout: unknown,
  sources: Map<number, SourceFile>,
  bytecode?: Json,
): SourceContract | undefined {
  const object = deployed?.object
  if (typeof object !== 'string' || object.replace(/^0x/, '') === '') return undefined
  const { code, placeholders } = parseBytecode(object)
  const links = linkRanges(deployed?.linkReferences).filter((r) => r.start + r.length <= code.length)
  for (const r of links) code.fill(0, r.start, r.start + r.length)
  const masked = mergeRanges(immutableRanges(deployed?.immutableReferences), placeholders, links)
  const creation = readCreationCode(bytecode, code)
  return {
    name,
    file,
    runtime: code,
    sourceMap: typeof deployed?.sourceMap === 'string' ? deployed.sourceMap : '',
    masked,
    abi: Array.isArray(abi) ? (abi as AbiEntry[]) : [],
    storageLayout: storageLayout ?? undefined,
    sources,
    ...(creation ? { creation } : {}),
  }
}
