import { type SignatureTable, createSignatureTable } from '../../src/utils/abi/createSignatureTable.js'
import { COMMON_SIGNATURES } from '../../src/utils/abi/commonSignatures.js'
import { decodeCallData as decodeWith } from '../../src/utils/abi/decodeCallData.js'
import { type DecodedValue, decodeParams, decodeTopic, displayed, hexToBytes } from './decodeAbi.js'
import { DEVNET_SIGNATURES } from './devnetSignatures.js'

// The table, its parsing and its decoding are the daemon's (src/utils/abi: the one bundled list, the
// same one edgetrace_previewTransactions names calls and errors by); values are shown as text here.
export type { AbiItem, AbiParam } from '../../src/utils/abi/parseSignature.js'
export { parseSignature } from '../../src/utils/abi/parseSignature.js'
export { type SignatureTable, createSignatureTable }
export type DecodedArg = { name: string; type: string; value: DecodedValue }
export type Decoded = { name: string; signature: string; args: DecodedArg[] }

let defaultTable: SignatureTable | undefined
/** The bundled list and the devnet's ABIs. */
export const signatures = (): SignatureTable =>
  (defaultTable ??= createSignatureTable([...COMMON_SIGNATURES, ...DEVNET_SIGNATURES]))

/** Decodes calldata (or revert data, as an error) by its selector; undefined when unknown or malformed. */
export function decodeCallData(input: string, table = signatures()): Decoded | undefined {
  const decoded = decodeWith(input, [table])
  if (!decoded) return undefined
  return {
    name: decoded.name,
    signature: decoded.signature,
    args: decoded.args.map((a) => ({ name: a.name, type: a.type, value: displayed(a.value) })),
  }
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
