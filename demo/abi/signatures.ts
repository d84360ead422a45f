import { keccak_256 } from '@noble/hashes/sha3.js'
import { COMMON_SIGNATURES } from './commonSignatures.js'
import { type DecodedValue, decodeParams, decodeTopic, hexToBytes, splitTypes } from './decodeAbi.js'
import { DEVNET_SIGNATURES } from './devnetSignatures.js'

export type AbiParam = { type: string; name: string; indexed: boolean }
export type AbiItem = { kind: 'function' | 'event' | 'error'; name: string; params: AbiParam[]; signature: string }
export type DecodedArg = { name: string; type: string; value: DecodedValue }
export type Decoded = { name: string; signature: string; args: DecodedArg[] }

const hex = (bytes: Uint8Array) => `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`

/** Parses `function transfer(address to, uint256 amount)` (and event / error lines). */
export function parseSignature(line: string): AbiItem {
  const m = /^(function|event|error)\s+(\w+)\((.*)\)$/.exec(line.trim())
  if (!m) throw new Error(`not a signature: ${line}`)
  const params = splitTypes(m[3]!).map((part) => {
    const words = part.trim().split(/\s+/)
    const type = words[0]!
    const indexed = words.includes('indexed')
    const name = words.length > 1 && words.at(-1) !== 'indexed' ? words.at(-1)! : ''
    return { type, name, indexed }
  })
  const name = m[2]!
  return {
    kind: m[1] as AbiItem['kind'],
    name,
    params,
    signature: `${name}(${params.map((p) => p.type).join(',')})`,
  }
}

/** Function and error selectors (4 bytes) and event topics (32 bytes) → the items they name. */
export type SignatureTable = { selectors: Map<string, AbiItem[]>; topics: Map<string, AbiItem[]> }

export function createSignatureTable(lines: readonly string[]): SignatureTable {
  const selectors = new Map<string, AbiItem[]>()
  const topics = new Map<string, AbiItem[]>()
  for (const line of lines) {
    const item = parseSignature(line)
    const hash = hex(keccak_256(new TextEncoder().encode(item.signature)))
    const [map, key] = item.kind === 'event' ? [topics, hash] : [selectors, hash.slice(0, 10)]
    const list = map.get(key) ?? []
    if (!list.some((other) => other.signature === item.signature && sameParams(other, item))) list.push(item)
    map.set(key, list)
  }
  return { selectors, topics }
}

/** Same names and same indexed parameters (ERC-20's and ERC-721's Transfer differ only there). */
const sameParams = (a: AbiItem, b: AbiItem) =>
  a.params.map((p) => `${p.name}${p.indexed}`).join() === b.params.map((p) => `${p.name}${p.indexed}`).join()

let defaultTable: SignatureTable | undefined
/** The bundled list and the devnet's ABIs. */
export const signatures = (): SignatureTable =>
  (defaultTable ??= createSignatureTable([...COMMON_SIGNATURES, ...DEVNET_SIGNATURES]))

/** Decodes calldata (or revert data, as an error) by its selector; undefined when unknown or malformed. */
export function decodeCallData(input: string, table = signatures()): Decoded | undefined {
  if (input.length < 10) return undefined
  const data = hexToBytes(input.slice(10))
  for (const item of table.selectors.get(input.slice(0, 10).toLowerCase()) ?? []) {
    const values = decodeParams(
      item.params.map((p) => p.type),
      data,
    )
    if (values) return { name: item.name, signature: item.signature, args: named(item.params, values) }
  }
  return undefined
}

/** Decodes a log by its first topic: indexed parameters from the topics, the rest from the data. */
export function decodeLog(topics: readonly string[], data: string, table = signatures()): Decoded | undefined {
  const first = topics[0]?.toLowerCase()
  if (!first) return undefined
  for (const item of table.topics.get(first) ?? []) {
    const indexed = item.params.filter((p) => p.indexed)
    if (indexed.length !== topics.length - 1) continue // ERC-20 and ERC-721 Transfer share a topic
    const plain = item.params.filter((p) => !p.indexed)
    const values = decodeParams(
      plain.map((p) => p.type),
      hexToBytes(data),
    )
    if (!values) continue
    let nextTopic = 1
    let nextValue = 0
    const args = item.params.map((p) => ({
      name: p.name,
      type: p.type,
      value: p.indexed ? decodeTopic(p.type, topics[nextTopic++]!) : values[nextValue++]!,
    }))
    return { name: item.name, signature: item.signature, args }
  }
  return undefined
}

const named = (params: readonly AbiParam[], values: readonly DecodedValue[]): DecodedArg[] =>
  params.map((p, i) => ({ name: p.name, type: p.type, value: values[i]! }))

const PANICS: Record<string, string> = {
  '0': 'generic panic',
  '1': 'assert(false)',
  '17': 'arithmetic overflow or underflow',
  '18': 'division or modulo by zero',
  '33': 'invalid enum value',
  '34': 'bad storage byte array',
  '49': 'pop on an empty array',
  '50': 'array index out of bounds',
  '65': 'too much memory',
  '81': 'call to an uninitialized function',
}

/** Revert data in words: Error(string)'s reason, a panic's meaning, a known custom error, or the hex. */
export function describeRevert(output: string | undefined, table = signatures()): string | undefined {
  if (!output || output === '0x') return undefined
  const decoded = decodeCallData(output, table)
  if (!decoded) return `custom error ${output.slice(0, 10)} (unknown selector)`
  if (decoded.name === 'Error') return String(decoded.args[0]!.value)
  if (decoded.name === 'Panic') {
    const code = String(decoded.args[0]!.value)
    return `Panic(0x${BigInt(code).toString(16).padStart(2, '0')}): ${PANICS[code] ?? 'unknown panic code'}`
  }
  return `${decoded.name}(${decoded.args.map((a) => `${a.name ? `${a.name}: ` : ''}${String(a.value)}`).join(', ')})`
}
