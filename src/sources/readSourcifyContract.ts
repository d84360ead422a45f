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
  'creationBytecode',
  'storageLayout',
] as const

/**
 * A verified contract as Sourcify's APIv2 describes it (`/v2/contract/{chainId}/{address}` with
 * SOURCIFY_FIELDS), in the model the registry matches: the recompiled runtime code (immutables
 * zero, libraries unlinked) with its `immutableReferences` and `linkReferences` as masked ranges,
 * its source map, ABI and storage layout, the recompiled creation code with its source map (the
 * constructor's lines; `cborAuxdata` masked), and the sources by solc source id (`sourceIds`;
 * without it the ids solc gives, the source units in sorted order). Undefined when the answer has no
 * runtime code. Nothing here is trusted: the caller matches the code against the code that ran.
 *
 * The shape, as Sourcify's own OpenAPI spec gives it (argotorg/sourcify,
 * services/server/src/apiv2.yaml, `GET /v2/contract/{chainId}/{address}`): `sources` is
 * `{path: {content}}`; `sourceIds` is "AST source IDs from the standard JSON compiler output",
 * `{path: {id}}` ("Same as stdJsonOutput.sources"); `runtimeBytecode` and `creationBytecode` have
 * `onchainBytecode`, `recompiledBytecode`, `sourceMap`, `linkReferences`, `cborAuxdata`
 * (`{id: {value, offset}}`), and the runtime's `immutableReferences`; `compilation` has `name` and
 * `fullyQualifiedName` (`contracts/MyContract.sol:MyContract`).
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
    linkReferences: runtime?.linkReferences,
  }
  const creation: Json | undefined = answer.creationBytecode
  const creationObject = creation?.recompiledBytecode
  const bytecode =
    typeof creationObject === 'string'
      ? { object: creationObject, sourceMap: creation?.sourceMap, linkReferences: creation?.linkReferences }
      : undefined
  const contract = fromParts(name, file, deployed, answer.abi, answer.storageLayout ?? undefined, sources, bytecode)
  if (!contract?.creation) return contract
  // Sourcify says where the creation code's CBOR metadata is (`cborAuxdata`: `{id: {value, offset}}`):
  // masked too (a contract created in the constructor carries its own).
  for (const aux of Object.values<Json>(creation?.cborAuxdata ?? {})) {
    const value = aux?.value
    if (typeof aux?.offset !== 'number' || typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})+$/.test(value)) continue
    const range = { start: aux.offset as number, length: (value.length - 2) / 2 }
    if (range.start + range.length > contract.creation.code.length) continue
    if (!contract.creation.masked.some((r) => r.start === range.start)) contract.creation.masked.push(range)
  }
  contract.creation.masked.sort((a, b) => a.start - b.start)
  return contract
}
