import type { SignatureTable } from './createSignatureTable.js'
import { type AbiValue, decodeParams, hexToBytes } from './decodeAbi.js'
import type { AbiParam } from './parseSignature.js'

export type DecodedArg = { name: string; type: string; value: AbiValue }
/** Call data (or revert data) named by its selector, its arguments decoded. */
export type DecodedCall = { selector: string; name: string; signature: string; args: DecodedArg[] }

export const namedArgs = (params: readonly AbiParam[], values: readonly AbiValue[]): DecodedArg[] =>
  params.map((p, i) => ({ name: p.name, type: p.type, value: values[i]! }))

/**
 * Decodes call data, or revert data as an error, by its 4-byte selector: the first item of the
 * first table that knows the selector and whose parameters the data fits; undefined when none does.
 */
export function decodeCallData(input: string, tables: readonly SignatureTable[]): DecodedCall | undefined {
  if (input.length < 10) return undefined
  const selector = input.slice(0, 10).toLowerCase()
  let data: Uint8Array | undefined
  for (const table of tables) {
    for (const item of table.selectors.get(selector) ?? []) {
      data ??= hexToBytes(input.slice(10))
      const values = decodeParams(
        item.params.map((p) => p.type),
        data,
      )
      if (values) return { selector, name: item.name, signature: item.signature, args: namedArgs(item.params, values) }
    }
  }
  return undefined
}
