import type { AuthorizationEntry, CallArgs } from '../exec/types.js'
import type { AccessListEntry } from '../state/types.js'
import type { Hex } from '../types/hex.js'
import { ParamError } from './params.js'
import { describe, parseAddress, parseData, parseHash, parseObject, parseQuantity, parseUint64 } from './parsers.js'

function field<value>(obj: Record<string, unknown>, name: string, parse: (raw: unknown) => value): value | undefined {
  const raw = obj[name]
  if (raw === undefined || raw === null) return undefined
  try {
    return parse(raw)
  } catch (err) {
    throw new ParamError(`field "${name}": ${err instanceof Error ? err.message : String(err)}`)
  }
}

function parseAccessList(raw: unknown): AccessListEntry[] {
  if (!Array.isArray(raw)) throw new ParamError(`expected an array, got ${describe(raw)}`)
  return raw.map((entry) => {
    const e = parseObject(entry, 'an access list entry')
    const keys = e.storageKeys ?? []
    if (!Array.isArray(keys)) throw new ParamError('storageKeys must be an array')
    return { address: parseAddress(e.address), storageKeys: keys.map(parseHash) }
  })
}

function parseWord(raw: unknown): bigint {
  if (typeof raw !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(raw)) {
    throw new ParamError(`expected a hex number of at most 32 bytes, got ${describe(raw)}`)
  }
  return BigInt(raw)
}

function parseAuthorizationList(raw: unknown): AuthorizationEntry[] {
  if (!Array.isArray(raw)) throw new ParamError(`expected an array, got ${describe(raw)}`)
  return raw.map((entry) => {
    const e = parseObject(entry, 'an authorization')
    return {
      chainId: parseQuantity(e.chainId),
      address: parseAddress(e.address),
      nonce: parseUint64(e.nonce),
      yParity: parseQuantity(e.yParity ?? e.v),
      // Signatures are often written as 32-byte words, leading zeros included.
      r: parseWord(e.r),
      s: parseWord(e.s),
    }
  })
}

function parseHashes(raw: unknown): Hex[] {
  if (!Array.isArray(raw)) throw new ParamError(`expected an array, got ${describe(raw)}`)
  return raw.map(parseHash)
}

/** geth's TransactionArgs for calls: every field optional, `input` preferred over `data`. */
export function parseCallArgs(raw: unknown): CallArgs {
  const obj = parseObject(raw, 'a transaction call')
  const data = field(obj, 'data', parseData)
  const input = field(obj, 'input', parseData)
  if (data !== undefined && input !== undefined && data !== input) {
    throw new ParamError(
      'both "data" and "input" are set and not equal. Please use "input" to pass transaction call data',
    )
  }
  const args: CallArgs = {
    from: field(obj, 'from', parseAddress),
    to: field(obj, 'to', parseAddress),
    gas: field(obj, 'gas', parseUint64),
    gasPrice: field(obj, 'gasPrice', parseQuantity),
    maxFeePerGas: field(obj, 'maxFeePerGas', parseQuantity),
    maxPriorityFeePerGas: field(obj, 'maxPriorityFeePerGas', parseQuantity),
    value: field(obj, 'value', parseQuantity),
    data: input ?? data,
    nonce: field(obj, 'nonce', parseUint64),
    accessList: field(obj, 'accessList', parseAccessList),
    authorizationList: field(obj, 'authorizationList', parseAuthorizationList),
    blobVersionedHashes: field(obj, 'blobVersionedHashes', parseHashes),
    maxFeePerBlobGas: field(obj, 'maxFeePerBlobGas', parseQuantity),
    chainId: field(obj, 'chainId', parseQuantity),
  }
  if (args.gasPrice !== undefined && (args.maxFeePerGas !== undefined || args.maxPriorityFeePerGas !== undefined)) {
    throw new ParamError('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified')
  }
  if (
    args.maxFeePerGas !== undefined &&
    args.maxPriorityFeePerGas !== undefined &&
    args.maxFeePerGas < args.maxPriorityFeePerGas
  ) {
    throw new ParamError('maxFeePerGas must be greater than or equal to maxPriorityFeePerGas')
  }
  return args
}
