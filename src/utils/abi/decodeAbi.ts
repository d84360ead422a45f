/**
 * ABI decoding without a library: head/tail encoding of uint/int/address/bool/bytesN/bytes/string,
 * arrays of them (fixed and dynamic) and tuples written `(t1,t2)`. Numbers come back as bigints,
 * bools as booleans, addresses and bytes as lowercase hex, strings as text; undefined when the data
 * does not fit the types (never a wrong decoding).
 */
export type AbiValue = bigint | boolean | string | AbiValue[]

/** Most elements one dynamic array may claim (a longer one is not decoded). */
const MAX_ARRAY = 10_000

const hexOf = (bytes: Uint8Array) => `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`

export function hexToBytes(hex: string): Uint8Array {
  const clean = hex.startsWith('0x') ? hex.slice(2) : hex
  const out = new Uint8Array(Math.floor(clean.length / 2))
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(clean.slice(i * 2, i * 2 + 2), 16)
  return out
}

const wordAt = (data: Uint8Array, at: number): bigint => {
  if (at + 32 > data.length) throw new RangeError('out of data')
  return BigInt(hexOf(data.subarray(at, at + 32)))
}

/** Splits a tuple's component list `(a,(b,c)[],d)` at its top-level commas. */
export function splitTypes(list: string): string[] {
  const out: string[] = []
  let depth = 0
  let current = ''
  for (const ch of list) {
    if (ch === ',' && depth === 0) {
      out.push(current.trim())
      current = ''
      continue
    }
    if (ch === '(') depth++
    if (ch === ')') depth--
    current += ch
  }
  if (current.trim()) out.push(current.trim())
  return out
}

function isDynamic(type: string): boolean {
  if (type === 'bytes' || type === 'string' || type.endsWith('[]')) return true
  const fixed = /^(.*)\[(\d+)\]$/.exec(type)
  if (fixed) return isDynamic(fixed[1]!)
  if (type.startsWith('(')) return splitTypes(type.slice(1, -1)).some(isDynamic)
  return false
}

function headSize(type: string): number {
  if (isDynamic(type)) return 32
  const fixed = /^(.*)\[(\d+)\]$/.exec(type)
  if (fixed) return Number(fixed[2]) * headSize(fixed[1]!)
  if (type.startsWith('(')) return splitTypes(type.slice(1, -1)).reduce((n, t) => n + headSize(t), 0)
  return 32
}

function decodeOne(type: string, data: Uint8Array, at: number, base: number): AbiValue {
  if (isDynamic(type)) {
    const offset = base + Number(wordAt(data, at))
    return decodeTail(type, data, offset)
  }
  return decodeStatic(type, data, at)
}

function decodeStatic(type: string, data: Uint8Array, at: number): AbiValue {
  if (at + headSize(type) > data.length) throw new RangeError('out of data')
  const fixed = /^(.*)\[(\d+)\]$/.exec(type)
  if (fixed) return decodeList(Array(Number(fixed[2])).fill(fixed[1]!), data, at)
  if (type.startsWith('(')) return decodeList(splitTypes(type.slice(1, -1)), data, at)
  const word = wordAt(data, at)
  if (type === 'address') return `0x${word.toString(16).padStart(40, '0').slice(-40)}`
  if (type === 'bool') return word !== 0n
  if (/^uint\d*$/.test(type)) return word
  if (/^int\d*$/.test(type)) return word >= 1n << 255n ? word - (1n << 256n) : word
  const bytesN = /^bytes(\d+)$/.exec(type)
  if (bytesN) return hexOf(data.subarray(at, at + Number(bytesN[1])))
  throw new TypeError(`unsupported type ${type}`)
}

function decodeTail(type: string, data: Uint8Array, at: number): AbiValue {
  if (type === 'bytes' || type === 'string') {
    const length = Number(wordAt(data, at))
    if (at + 32 + length > data.length) throw new RangeError('out of data')
    const bytes = data.subarray(at + 32, at + 32 + length)
    return type === 'string' ? new TextDecoder().decode(bytes) : hexOf(bytes)
  }
  if (type.endsWith('[]')) {
    const length = Number(wordAt(data, at))
    if (length > MAX_ARRAY) throw new RangeError('array too long')
    return decodeList(Array(length).fill(type.slice(0, -2)), data, at + 32)
  }
  return decodeStatic(type, data, at) // a dynamic fixed array or tuple: its head starts here
}

function decodeList(types: readonly string[], data: Uint8Array, at: number): AbiValue[] {
  const out: AbiValue[] = []
  let head = at
  for (const type of types) {
    out.push(decodeOne(type, data, head, at))
    head += headSize(type)
  }
  return out
}

/** Decodes `data` as the ABI encoding of `types`; undefined when it does not fit. */
export function decodeParams(types: readonly string[], data: Uint8Array): AbiValue[] | undefined {
  try {
    return decodeList(types, data, 0)
  } catch {
    return undefined
  }
}

/** Decodes one 32-byte topic as an indexed parameter (a dynamic one is only its hash). */
export function decodeTopic(type: string, topic: string): AbiValue {
  if (isDynamic(type)) return `${topic} (hash)`
  return decodeStatic(type, hexToBytes(topic), 0)
}

/** A decoded value as text: numbers in decimal, bools as true/false, lists element by element. */
export type DisplayValue = string | DisplayValue[]

export function displayAbiValue(value: AbiValue): DisplayValue {
  if (Array.isArray(value)) return value.map(displayAbiValue)
  return typeof value === 'string' ? value : String(value)
}
