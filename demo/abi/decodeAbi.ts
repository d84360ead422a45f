import {
  type AbiValue,
  type DisplayValue,
  decodeParams as decodeValues,
  decodeTopic as decodeTopicValue,
  displayAbiValue,
  hexToBytes,
} from '../../src/utils/abi/decodeAbi.js'

/**
 * The explorer's ABI decoding is the daemon's (src/utils/abi/decodeAbi.ts), its values shown as
 * text: numbers in decimal, bytes in hex, bools as true/false. Encoding what a user types is the
 * page's own (below).
 */
export type DecodedValue = DisplayValue
export { hexToBytes }
export { splitTypes } from '../../src/utils/abi/decodeAbi.js'

export const displayed = (value: AbiValue): DecodedValue => displayAbiValue(value)

/** Decodes `data` as the ABI encoding of `types`, as text; undefined when it does not fit. */
export function decodeParams(types: readonly string[], data: Uint8Array): DecodedValue[] | undefined {
  return decodeValues(types, data)?.map(displayAbiValue)
}

/** Decodes one 32-byte topic as an indexed parameter, as text (a dynamic one is only its hash). */
export const decodeTopic = (type: string, topic: string): DecodedValue => displayAbiValue(decodeTopicValue(type, topic))

/** ABI-encodes static arguments (address, uint, int, bool, bytesN) given as text, for a call the user writes. */
export function encodeStatic(types: readonly string[], values: readonly string[]): string {
  if (types.length !== values.length) throw new Error(`expected ${types.length} arguments, got ${values.length}`)
  return types
    .map((type, i) => {
      const text = values[i]!.trim()
      let word: bigint
      if (type === 'address') {
        if (!/^0x[0-9a-fA-F]{40}$/.test(text)) throw new Error(`argument ${i + 1} (${type}) is not an address: ${text}`)
        word = BigInt(text)
      } else if (type === 'bool') {
        if (text !== 'true' && text !== 'false') throw new Error(`argument ${i + 1} (bool) must be true or false`)
        word = text === 'true' ? 1n : 0n
      } else if (/^u?int\d*$/.test(type)) {
        word = parseAmount(text)
        if (word < 0n) word += 1n << 256n
      } else if (/^bytes\d+$/.test(type)) {
        if (!/^0x[0-9a-fA-F]*$/.test(text)) throw new Error(`argument ${i + 1} (${type}) must be hex`)
        return text.slice(2).padEnd(64, '0')
      } else throw new Error(`argument ${i + 1}: ${type} is not supported here (write the calldata instead)`)
      return word.toString(16).padStart(64, '0')
    })
    .join('')
}

/** A whole number, or a decimal with a unit: `5 ether`, `1.5 gwei`, `100`. */
export function parseAmount(text: string): bigint {
  const m = /^(-?\d+(?:\.\d+)?)\s*(ether|eth|gwei|wei)?$/i.exec(text.trim())
  if (!m) {
    if (/^0x[0-9a-fA-F]+$/.test(text.trim())) return BigInt(text.trim())
    throw new Error(`not a number: ${text}`)
  }
  const decimals = { ether: 18, eth: 18, gwei: 9, wei: 0 }[(m[2] ?? 'wei').toLowerCase() as 'wei']
  const [whole, fraction = ''] = m[1]!.split('.')
  if (fraction.length > decimals) throw new Error(`too many decimals in ${text}`)
  return BigInt(whole! + fraction.padEnd(decimals, '0'))
}
