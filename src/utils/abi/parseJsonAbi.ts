import type { AbiItem, AbiParam } from './parseSignature.js'

/** Most items one JSON ABI may hold. */
export const MAX_ABI_ITEMS = 1000
/** Most parameters (or tuple components) one item or tuple may have. */
const MAX_PARAMS = 64
/** Deepest nesting of tuples. */
const MAX_DEPTH = 8
/** Largest fixed array length (`T[k]`), and most array dimensions. */
const MAX_FIXED_LENGTH = 1024
const MAX_DIMENSIONS = 4

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/
const KINDS = ['function', 'event', 'error', 'constructor', 'fallback', 'receive']

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const show = (v: unknown) =>
  typeof v === 'string' ? JSON.stringify(v.slice(0, 64)) : Array.isArray(v) ? 'an array' : String(v)

/** An elementary type this decoder reads: uint<M>, int<M>, address, bool, bytes<M>, bytes, string. */
function elementary(type: string): boolean {
  if (type === 'address' || type === 'bool' || type === 'string' || type === 'bytes') return true
  const int = /^u?int(\d*)$/.exec(type)
  if (int) return int[1] === '' || (Number(int[1]) % 8 === 0 && Number(int[1]) >= 8 && Number(int[1]) <= 256)
  const bytes = /^bytes(\d+)$/.exec(type)
  return bytes !== null && Number(bytes[1]) >= 1 && Number(bytes[1]) <= 32
}

/** A parameter's canonical type (`uint` → `uint256`, a tuple → `(t1,t2)`), its array suffixes kept. */
function canonicalType(param: Record<string, unknown>, where: string, depth: number): string {
  const type = param.type
  if (typeof type !== 'string') throw new Error(`${where}.type: expected a string, got ${show(type)}`)
  const m = /^([a-z0-9]+)((?:\[\d*\])*)$/.exec(type)
  if (!m) throw new Error(`${where}.type: not a Solidity type: ${show(type)}`)
  const base = m[1]!
  const suffixes = m[2]!.match(/\[\d*\]/g) ?? []
  if (suffixes.length > MAX_DIMENSIONS) throw new Error(`${where}.type: more than ${MAX_DIMENSIONS} array dimensions`)
  for (const s of suffixes) {
    const n = s.slice(1, -1)
    if (n !== '' && (Number(n) < 1 || Number(n) > MAX_FIXED_LENGTH)) {
      throw new Error(`${where}.type: a fixed array's length must be 1 to ${MAX_FIXED_LENGTH}: ${show(type)}`)
    }
  }
  let head: string
  if (base === 'tuple') {
    if (depth >= MAX_DEPTH) throw new Error(`${where}.components: tuples nested more than ${MAX_DEPTH} deep`)
    const components = param.components
    if (!Array.isArray(components) || components.length === 0) {
      throw new Error(`${where}.components: a tuple needs a non-empty array of components`)
    }
    head = `(${paramList(components, `${where}.components`, depth + 1)
      .map((p) => p.type)
      .join(',')})`
  } else if (elementary(base)) head = base === 'uint' ? 'uint256' : base === 'int' ? 'int256' : base
  else throw new Error(`${where}.type: ${show(type)} is not a type this decoder reads`)
  return `${head}${suffixes.join('')}`
}

function paramList(raw: unknown, where: string, depth: number): AbiParam[] {
  if (raw === undefined) return []
  if (!Array.isArray(raw)) throw new Error(`${where}: expected an array, got ${show(raw)}`)
  if (raw.length > MAX_PARAMS) throw new Error(`${where}: ${raw.length} entries, at most ${MAX_PARAMS}`)
  return raw.map((p, i) => {
    const at = `${where}[${i}]`
    if (!isObject(p)) throw new Error(`${at}: expected an object, got ${show(p)}`)
    const name = p.name ?? ''
    if (typeof name !== 'string' || (name !== '' && !IDENTIFIER.test(name))) {
      throw new Error(`${at}.name: expected an identifier, got ${show(name)}`)
    }
    if (p.indexed !== undefined && typeof p.indexed !== 'boolean') {
      throw new Error(`${at}.indexed: expected a boolean, got ${show(p.indexed)}`)
    }
    return { type: canonicalType(p, at, depth), name, indexed: p.indexed === true }
  })
}

/**
 * A JSON ABI (as solc, viem and ethers give it) as items: its functions, events and errors, each
 * with canonical parameter types (tuples as `(t1,t2)`); constructors, fallbacks and receives are
 * accepted and left out. Throws a message naming the entry (`[3].inputs[0].type: …`) for anything
 * that is not a well-formed ABI, or bigger than the bounds (1,000 items, 64 parameters, tuples 8 deep).
 */
export function parseJsonAbi(raw: unknown): AbiItem[] {
  if (!Array.isArray(raw)) throw new Error(`: expected a JSON ABI (an array of items), got ${show(raw)}`)
  if (raw.length > MAX_ABI_ITEMS) throw new Error(`: ${raw.length} items, at most ${MAX_ABI_ITEMS}`)
  const items: AbiItem[] = []
  raw.forEach((entry, i) => {
    const at = `[${i}]`
    if (!isObject(entry)) throw new Error(`${at}: expected an ABI item (an object), got ${show(entry)}`)
    const kind = entry.type ?? 'function'
    if (typeof kind !== 'string' || !KINDS.includes(kind)) {
      throw new Error(`${at}.type: expected one of ${KINDS.join(', ')}, got ${show(kind)}`)
    }
    if (kind !== 'function' && kind !== 'event' && kind !== 'error') return
    const name = entry.name
    if (typeof name !== 'string' || !IDENTIFIER.test(name)) {
      throw new Error(`${at}.name: expected an identifier, got ${show(name)}`)
    }
    const params = paramList(entry.inputs, `${at}.inputs`, 0)
    items.push({ kind, name, params, signature: `${name}(${params.map((p) => p.type).join(',')})` })
  })
  return items
}
