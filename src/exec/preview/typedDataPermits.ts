import type { Hex } from '../../types/hex.js'
import { PERMIT2 } from './approvalsTouched.js'

/** EIP-712 typed data as eth_signTypedData_v4 carries it. */
export type TypedData = {
  types: Record<string, { name: string; type: string }[]>
  primaryType: string
  domain: Record<string, unknown>
  message: Record<string, unknown>
}

/** What one signed permit would allow: `token`'s `amount` to `spender` (Permit2: until `expiration`). */
export type PermitGrant = { token: Hex; amount: bigint; expiration?: bigint; nonce: bigint }

/**
 * A recognised permit: `eip2612` (Permit on the token itself), `dai` (DAI's holder/expiry/allowed),
 * `permit2` (PermitSingle / PermitBatch: an allowance on Permit2, nonce per owner, token and spender),
 * `permit2Transfer` (PermitTransferFrom / PermitBatchTransferFrom: one transfer, an unordered nonce).
 */
export type RecognizedPermit = {
  kind: 'eip2612' | 'dai' | 'permit2' | 'permit2Transfer'
  owner: Hex | null
  spender: Hex
  /** The signature's deadline (unix seconds): deadline, expiry or sigDeadline; 0 for DAI means none. */
  deadline: bigint | null
  grants: PermitGrant[]
}

const MAX_UINT256 = (1n << 256n) - 1n

const fieldsOf = (data: TypedData, type: string) =>
  (data.types[type] ?? [])
    .map((f) => `${f.name}:${f.type}`)
    .sort()
    .join(',')
const has = (data: TypedData, type: string, fields: string[]) => fieldsOf(data, type) === [...fields].sort().join(',')

/**
 * A typed-data uint given as a number, a decimal or 0x string (as wallets pass it), of at most a
 * uint256's digits (a longer string is no uint256, and parsing megabytes of digits would hold the
 * thread); undefined for anything else.
 */
export function typedDataUint(value: unknown): bigint | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  if (typeof value === 'string' && /^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$/.test(value)) return BigInt(value)
  return undefined
}

/** typedDataUint, or an error naming the field. */
function uint(value: unknown, where: string): bigint {
  const parsed = typedDataUint(value)
  if (parsed !== undefined) return parsed
  throw new Error(`${where}: expected an unsigned integer, got ${JSON.stringify(value)?.slice(0, 100)}`)
}
function address(value: unknown, where: string): Hex {
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{40}$/.test(value)) return value.toLowerCase() as Hex
  throw new Error(`${where}: expected an address, got ${JSON.stringify(value)}`)
}
const object = (value: unknown, where: string): Record<string, unknown> => {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>
  throw new Error(`${where}: expected an object, got ${JSON.stringify(value)}`)
}
const list = (value: unknown, where: string): unknown[] => {
  if (Array.isArray(value)) return value
  throw new Error(`${where}: expected an array, got ${JSON.stringify(value)}`)
}

const DETAILS = ['token:address', 'amount:uint160', 'expiration:uint48', 'nonce:uint48']
const PERMITTED = ['token:address', 'amount:uint256']

/**
 * The permit a typed data is, by its primary type and that type's fields (names and types exactly
 * those of EIP-2612, DAI's permit, Permit2's PermitSingle / PermitBatch / PermitTransferFrom /
 * PermitBatchTransferFrom, the last two and Permit2's allowances only with the canonical Permit2 as
 * verifyingContract); null for anything else. A message field of the wrong kind throws naming it
 * (`message.value: …`).
 */
export function recognizePermit(data: TypedData): RecognizedPermit | null {
  const m = data.message
  const verifying =
    typeof data.domain.verifyingContract === 'string' ? data.domain.verifyingContract.toLowerCase() : null
  const isPermit2 = verifying === PERMIT2
  const p = data.primaryType
  if (p === 'Permit' && verifying && !isPermit2) {
    const token = address(verifying, 'domain.verifyingContract')
    if (
      has(data, 'Permit', ['owner:address', 'spender:address', 'value:uint256', 'nonce:uint256', 'deadline:uint256'])
    ) {
      return {
        kind: 'eip2612',
        owner: address(m.owner, 'message.owner'),
        spender: address(m.spender, 'message.spender'),
        deadline: uint(m.deadline, 'message.deadline'),
        grants: [{ token, amount: uint(m.value, 'message.value'), nonce: uint(m.nonce, 'message.nonce') }],
      }
    }
    if (has(data, 'Permit', ['holder:address', 'spender:address', 'nonce:uint256', 'expiry:uint256', 'allowed:bool'])) {
      if (typeof m.allowed !== 'boolean')
        throw new Error(`message.allowed: expected a bool, got ${JSON.stringify(m.allowed)}`)
      return {
        kind: 'dai',
        owner: address(m.holder, 'message.holder'),
        spender: address(m.spender, 'message.spender'),
        deadline: uint(m.expiry, 'message.expiry'),
        grants: [{ token, amount: m.allowed ? MAX_UINT256 : 0n, nonce: uint(m.nonce, 'message.nonce') }],
      }
    }
    return null
  }
  if (!isPermit2) return null
  const detail = (d: unknown, where: string): PermitGrant => {
    const o = object(d, where)
    return {
      token: address(o.token, `${where}.token`),
      amount: uint(o.amount, `${where}.amount`),
      expiration: uint(o.expiration, `${where}.expiration`),
      nonce: uint(o.nonce, `${where}.nonce`),
    }
  }
  const common = { owner: null, spender: address(m.spender, 'message.spender') }
  if (has(data, 'PermitDetails', DETAILS)) {
    const tail = ['spender:address', 'sigDeadline:uint256']
    if (p === 'PermitSingle' && has(data, p, ['details:PermitDetails', ...tail])) {
      return {
        kind: 'permit2',
        ...common,
        deadline: uint(m.sigDeadline, 'message.sigDeadline'),
        grants: [detail(m.details, 'message.details')],
      }
    }
    if (p === 'PermitBatch' && has(data, p, ['details:PermitDetails[]', ...tail])) {
      return {
        kind: 'permit2',
        ...common,
        deadline: uint(m.sigDeadline, 'message.sigDeadline'),
        grants: list(m.details, 'message.details').map((d, i) => detail(d, `message.details[${i}]`)),
      }
    }
  }
  if (has(data, 'TokenPermissions', PERMITTED)) {
    const tail = ['spender:address', 'nonce:uint256', 'deadline:uint256']
    const nonce = () => uint(m.nonce, 'message.nonce')
    const permitted = (d: unknown, where: string): PermitGrant => {
      const o = object(d, where)
      return { token: address(o.token, `${where}.token`), amount: uint(o.amount, `${where}.amount`), nonce: nonce() }
    }
    if (p === 'PermitTransferFrom' && has(data, p, ['permitted:TokenPermissions', ...tail])) {
      return {
        kind: 'permit2Transfer',
        ...common,
        deadline: uint(m.deadline, 'message.deadline'),
        grants: [permitted(m.permitted, 'message.permitted')],
      }
    }
    if (p === 'PermitBatchTransferFrom' && has(data, p, ['permitted:TokenPermissions[]', ...tail])) {
      return {
        kind: 'permit2Transfer',
        ...common,
        deadline: uint(m.deadline, 'message.deadline'),
        grants: list(m.permitted, 'message.permitted').map((d, i) => permitted(d, `message.permitted[${i}]`)),
      }
    }
  }
  return null
}
