import { immutableRanges, parseBytecode } from './parseBytecode.js'
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
      const deployed = c?.evm?.deployedBytecode
      const contract = fromParts(name, file, deployed, c?.abi, c?.storageLayout, sources)
      if (contract) out.push(contract)
    }
  }
  return out
}

/** A contract from its deployed-bytecode object (`{object, sourceMap, immutableReferences}`) and the rest. */
export function fromParts(
  name: string,
  file: string,
  deployed: Json | undefined,
  abi: unknown,
  storageLayout: unknown,
  sources: Map<number, SourceFile>,
): SourceContract | undefined {
  const object = deployed?.object
  if (typeof object !== 'string' || object.replace(/^0x/, '') === '') return undefined
  const { code, placeholders } = parseBytecode(object)
  const masked = [...immutableRanges(deployed?.immutableReferences), ...placeholders].sort((a, b) => a.start - b.start)
  return {
    name,
    file,
    runtime: code,
    sourceMap: typeof deployed?.sourceMap === 'string' ? deployed.sourceMap : '',
    masked,
    abi: Array.isArray(abi) ? (abi as AbiEntry[]) : [],
    storageLayout: storageLayout ?? undefined,
    sources,
  }
}
