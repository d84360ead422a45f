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
 * a metadata tail of the creation code itself, and the metadata of the contracts its constructor
 * creates (embeddedMetadata). Undefined when there is no creation code.
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
    masked: mergeRanges(placeholders, links, metadata, embeddedMetadata(code)).filter(
      (r) => r.start + r.length <= code.length,
    ),
  }
}

/** The keys solc's CBOR metadata starts with (`ipfs` or `bzzr0`/`bzzr1`, else `solc` or `experimental`). */
const METADATA_KEYS = new Set(['ipfs', 'bzzr0', 'bzzr1', 'solc', 'experimental'])
const ascii = new TextDecoder()

/**
 * The CBOR metadata of every object solc compiled into `code`: besides the runtime code's, that of
 * the contracts a constructor creates (`new C()` puts C's creation code, its runtime and metadata
 * in it). Found by shape: a CBOR map (0xa1–0xa5) whose first key is one of solc's, followed within
 * 256 bytes by the two-byte length of the map — what solc appends after it —, preferably right after
 * the map's `solc` version entry.
 */
export function embeddedMetadata(code: Uint8Array): CodeRange[] {
  const out: CodeRange[] = []
  for (let p = 0; p + 8 < code.length; p++) {
    const map = code[p]!
    const key = code[p + 1]! - 0x60 // a CBOR text string of 4 to 12 bytes: 0x64–0x6c
    if (map < 0xa1 || map > 0xa5 || key < 4 || key > 12) continue
    if (!METADATA_KEYS.has(ascii.decode(code.subarray(p + 2, p + 2 + key)))) continue
    // Where the length says the map ends: preferably after solc's version (`solc` and 3 bytes, the
    // map's last entry since 0.5.9), so that a hash byte pair that reads as the length is not taken.
    let end = -1
    for (let e = p + 2 + key; e + 2 <= code.length && e - p <= 256; e++) {
      if (((code[e]! << 8) | code[e + 1]!) !== e - p) continue
      if (end < 0) end = e
      if (code[e - 4] === 0x43 && ascii.decode(code.subarray(e - 9, e - 4)) === '\x64solc') {
        end = e
        break
      }
    }
    if (end >= 0) {
      out.push({ start: p, length: end - p + 2 })
      p = end + 1
    }
  }
  return out
}
