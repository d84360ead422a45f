/** One variable of a storage layout, or one member of a struct: where it lies and its type's id. */
export type StorageLayoutEntry = {
  /** The variable's or member's name. */
  label: string
  /** Its slot (for a member: relative to the struct's first slot). */
  slot: bigint
  /** Its byte offset inside the slot, from the low-order end. */
  offset: number
  /** Its type's id, a key of `types` (`t_uint256`, `t_mapping(t_address,t_uint256)`…). */
  type: string
}

/** One type of a storage layout, as solc describes it. */
export type StorageLayoutType = {
  /** How it is stored: in its slot(s), a mapping, a dynamic array, or `bytes`/`string`. */
  encoding: 'inplace' | 'mapping' | 'dynamic_array' | 'bytes'
  /** Its Solidity name (`uint128`, `struct Vault.Config`, `mapping(address => uint256)`). */
  label: string
  /** Bytes it takes in place (32 for mappings, dynamic arrays and `bytes`/`string`: their slot). */
  numberOfBytes: number
  /** An array's element type. */
  base?: string
  /** A mapping's key type. */
  key?: string
  /** A mapping's value type. */
  value?: string
  /** A struct's members. */
  members?: StorageLayoutEntry[]
}

/** solc's `storageLayout` output, read: the contract's variables and the types they use. */
export type StorageLayout = { storage: StorageLayoutEntry[]; types: Map<string, StorageLayoutType> }

const ENCODINGS = new Set(['inplace', 'mapping', 'dynamic_array', 'bytes'])
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
/** A decimal number as solc writes it: a string (slots, sizes) or a number (offsets). */
const numeric = (v: unknown): bigint | undefined =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0
    ? BigInt(v)
    : typeof v === 'string' && /^\d{1,78}$/.test(v)
      ? BigInt(v)
      : undefined

function entry(raw: unknown): StorageLayoutEntry | undefined {
  if (!isObject(raw) || typeof raw.label !== 'string' || typeof raw.type !== 'string') return undefined
  const slot = numeric(raw.slot)
  const offset = numeric(raw.offset)
  if (slot === undefined || offset === undefined || offset > 31n) return undefined
  return { label: raw.label, slot, offset: Number(offset), type: raw.type }
}

function entries(raw: unknown): StorageLayoutEntry[] | undefined {
  if (!Array.isArray(raw)) return undefined
  const out: StorageLayoutEntry[] = []
  for (const item of raw) {
    const e = entry(item)
    if (!e) return undefined
    out.push(e)
  }
  return out
}

/**
 * solc's `storageLayout` (standard JSON's, Foundry's, Hardhat's: `{storage: […], types: {…}}`) read
 * and checked; undefined when it is absent or not of that shape (a layout half read would name
 * slots wrongly). A type whose description is malformed is left out: variables of it stay raw.
 */
export function parseStorageLayout(raw: unknown): StorageLayout | undefined {
  if (!isObject(raw)) return undefined
  const storage = entries(raw.storage)
  if (!storage) return undefined
  const types = new Map<string, StorageLayoutType>()
  if (raw.types !== null && raw.types !== undefined && !isObject(raw.types)) return undefined
  for (const [id, t] of Object.entries(raw.types ?? {})) {
    if (!isObject(t) || typeof t.encoding !== 'string' || !ENCODINGS.has(t.encoding)) continue
    const size = numeric(t.numberOfBytes)
    if (typeof t.label !== 'string' || size === undefined) continue
    const type: StorageLayoutType = {
      encoding: t.encoding as StorageLayoutType['encoding'],
      label: t.label,
      numberOfBytes: Number(size),
    }
    if (typeof t.base === 'string') type.base = t.base
    if (typeof t.key === 'string') type.key = t.key
    if (typeof t.value === 'string') type.value = t.value
    if (t.members !== undefined) {
      const members = entries(t.members)
      if (!members) continue
      type.members = members
    }
    types.set(id, type)
  }
  return { storage, types }
}
