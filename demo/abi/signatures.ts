import { type SignatureTable, createSignatureTable } from '../../src/utils/abi/createSignatureTable.js'
import { COMMON_SIGNATURES } from '../../src/utils/abi/commonSignatures.js'
import { decodeCallData as decodeWith } from '../../src/utils/abi/decodeCallData.js'
import { decodeRevert } from '../../src/utils/decodeRevert.js'
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

/**
 * Revert data in words: Error(string)'s reason, a panic's code and meaning (as the daemon words it,
 * geth's words), a known custom error with its arguments, or the selector — decoded by the daemon's
 * one revert decoder (src/utils/decodeRevert.ts).
 */
export function describeRevert(output: string | undefined, table = signatures()): string | undefined {
  if (!output || output === '0x') return undefined
  const decoded = decodeRevert(output as `0x${string}`, [table])
  if (decoded.type === 'Error') return decoded.message
  if (decoded.type === 'Panic') return `Panic(0x${decoded.code.toString(16).padStart(2, '0')}): ${decoded.message}`
  if (decoded.type === 'custom') {
    return `${decoded.name}(${decoded.args.map((a) => `${a.name ? `${a.name}: ` : ''}${String(displayed(a.value))}`).join(', ')})`
  }
  return `custom error ${output.slice(0, 10)} (unknown selector)`
}
