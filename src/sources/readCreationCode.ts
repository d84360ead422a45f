import { metadataLength } from './metadataLength.js'
import { linkRanges, mergeRanges, parseBytecode } from './parseBytecode.js'
import type { CodeRange, CreationCode } from './types.js'

/** Where `needle` first occurs in `hay`, or -1. */
function indexOf(hay: Uint8Array, needle: Uint8Array): number {
  if (needle.length === 0 || needle.length > hay.length) return -1
  const first = needle[0]!
  outer: for (let i = hay.indexOf(first); i >= 0 && i + needle.length <= hay.length; i = hay.indexOf(first, i + 1)) {
    for (let j = 1; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer
    return i
  }
  return -1
}

/**
 * A contract's creation bytecode (`evm.bytecode`: `{object, sourceMap, linkReferences}`) as the
 * registry matches it to the init code that runs. solc lays it out as the constructor's code and
 * then the runtime code it returns (verbatim: immutables zero, libraries unlinked), which ends with
 * that runtime code's CBOR metadata; the deployer appends the constructor's ABI-encoded arguments.
 * Masked: the libraries' addresses (placeholders, or `linkReferences` of a linked object) and the
 * runtime code's metadata where `runtime` (the deployed bytecode as compiled) is found inside, else
 * a metadata tail of the creation code itself. Undefined when there is no creation code.
 */
export function readCreationCode(bytecode: unknown, runtime: Uint8Array | undefined): CreationCode | undefined {
  const b = bytecode as { object?: unknown; sourceMap?: unknown; linkReferences?: unknown } | undefined
  if (typeof b?.object !== 'string' || b.object.replace(/^0x/, '') === '') return undefined
  const { code, placeholders } = parseBytecode(b.object)
  const links = linkRanges(b.linkReferences)
  for (const r of links) if (r.start + r.length <= code.length) code.fill(0, r.start, r.start + r.length)
  const metadata: CodeRange[] = []
  const at = runtime ? indexOf(code, runtime) : -1
  const tail = at >= 0 ? metadataLength(runtime!) : metadataLength(code)
  const end = at >= 0 ? at + runtime!.length : code.length
  if (tail > 0) metadata.push({ start: end - tail, length: tail })
  return {
    code,
    sourceMap: typeof b.sourceMap === 'string' ? b.sourceMap : '',
    masked: mergeRanges(placeholders, links, metadata).filter((r) => r.start + r.length <= code.length),
  }
}
