import type { SourceContract } from '../../../sources/types.js'
import type { Hex } from '../../../types/hex.js'
import { bundledSignatures } from '../../../utils/abi/bundledSignatures.js'
import { type SignatureTable, createSignatureTable } from '../../../utils/abi/createSignatureTable.js'
import { type DisplayValue, decodeParams, displayAbiValue } from '../../../utils/abi/decodeAbi.js'
import { type DecodedArg, decodeCallData, namedArgs } from '../../../utils/abi/decodeCallData.js'
import { decodeLog } from '../../../utils/abi/decodeLog.js'
import { parseJsonAbi } from '../../../utils/abi/parseJsonAbi.js'
import { decodeRevert } from '../../../utils/decodeRevert.js'
import { bytes as hexOf } from '../../../utils/hex.js'
import type { CallTraceNode } from '../../recorder/types.js'

/** An argument decoded: numbers in decimal, addresses and bytes in hex, strings as text, lists element by element. */
export type SourceArg = { name: string; type: string; value: DisplayValue }

/** A call's input by the contract's ABI (or the bundled signatures): the function and its arguments. */
export type SourceCall = { name: string; signature: string; args: SourceArg[] }

/** A log the frame emitted; name, signature and args null when no ABI knows it. */
export type SourceEvent = {
  address: Hex
  name: string | null
  signature: string | null
  args: SourceArg[] | null
  topics: Hex[]
  data: Hex
}

/**
 * Why a frame reverted, from its revert data: `Error(string)` (message), `Panic(uint256)` (code and
 * its meaning), a custom error by the contract's ABI (or the bundled signatures) with its arguments,
 * else `unknown` (a bare revert, an error no ABI names).
 */
export type SourceRevertError = {
  kind: 'Error' | 'Panic' | 'custom' | 'unknown'
  name: string | null
  signature: string | null
  message: string | null
  args: SourceArg[]
  data: Hex
}

const tables = new WeakMap<SourceContract, SignatureTable | null>()

/** The contract's ABI as a signature table (built once per contract); null when it has none or it does not parse. */
function tableOf(contract: SourceContract): SignatureTable | null {
  let table = tables.get(contract)
  if (table === undefined) {
    try {
      const items = parseJsonAbi(contract.abi)
      table = items.length > 0 ? createSignatureTable(items) : null
    } catch {
      table = null
    }
    tables.set(contract, table)
  }
  return table
}

/**
 * A creation's constructor arguments: the ABI-encoded bytes after the contract's creation bytecode
 * in the init code, by its ABI's constructor entry (none, or no inputs: no arguments). Null when the
 * contract has no creation code, its ABI does not parse or the bytes do not decode.
 */
function decodeConstructor(input: Uint8Array, contract: SourceContract): SourceCall | null {
  const creation = contract.creation
  if (!creation || input.length < creation.code.length) return null
  try {
    const entry = (contract.abi as unknown[]).find(
      (e) => typeof e === 'object' && e !== null && (e as { type?: unknown }).type === 'constructor',
    ) as Record<string, unknown> | undefined
    // Parsed as a function named `constructor`: the same checks and canonical types as the ABI's functions.
    const [item] = parseJsonAbi([{ inputs: entry?.inputs ?? [], type: 'function', name: 'constructor' }])
    const values = decodeParams(
      item!.params.map((p) => p.type),
      input.subarray(creation.code.length),
    )
    return values
      ? { name: 'constructor', signature: item!.signature, args: args(namedArgs(item!.params, values)) }
      : null
  } catch {
    return null
  }
}

const args = (list: readonly DecodedArg[]): SourceArg[] =>
  list.map((a) => ({ name: a.name, type: a.type, value: displayAbiValue(a.value) }))

/**
 * A frame's call, logs and revert decoded by its contract's own ABI first, the bundled signatures
 * after it (an error or event the contract's ABI does not declare, code that matched no contract).
 * A creation's call is its constructor's arguments, when `initMatched` (its init code begins with
 * `contract`'s creation bytecode); else null.
 */
export function decodeFrameAbi(
  node: CallTraceNode,
  contract: SourceContract | undefined,
  initMatched = false,
): { call: SourceCall | null; events: SourceEvent[]; revertError: SourceRevertError | null } {
  const own = contract ? tableOf(contract) : null
  const list = own ? [own, bundledSignatures()] : [bundledSignatures()]
  const creation = node.kind === 'CREATE' || node.kind === 'CREATE2'
  const decodedCall = creation || node.input.length < 4 ? undefined : decodeCallData(hexOf(node.input), list)
  const call = creation
    ? initMatched && contract
      ? decodeConstructor(node.input, contract)
      : null
    : decodedCall
      ? { name: decodedCall.name, signature: decodedCall.signature, args: args(decodedCall.args) }
      : null
  const events = node.logs.map((log): SourceEvent => {
    const decoded = decodeLog(log.topics, log.data, list)
    return {
      address: log.address,
      name: decoded?.name ?? null,
      signature: decoded?.signature ?? null,
      args: decoded ? args(decoded.args) : null,
      topics: log.topics,
      data: hexOf(log.data),
    }
  })
  let revertError: SourceRevertError | null = null
  // A frame that failed otherwise (out of gas, an invalid op) has no revert data to decode.
  if (node.error === 'execution reverted') {
    const r = decodeRevert(node.output, list)
    if (r.type === 'Error')
      revertError = {
        kind: 'Error',
        name: 'Error',
        signature: 'Error(string)',
        message: r.message,
        args: [{ name: 'message', type: 'string', value: r.message }],
        data: r.data,
      }
    else if (r.type === 'Panic')
      revertError = {
        kind: 'Panic',
        name: 'Panic',
        signature: 'Panic(uint256)',
        message: r.message,
        args: [{ name: 'code', type: 'uint256', value: r.code.toString() }],
        data: r.data,
      }
    else if (r.type === 'custom')
      revertError = {
        kind: 'custom',
        name: r.name,
        signature: r.signature,
        message: null,
        args: args(r.args),
        data: r.data,
      }
    else revertError = { kind: 'unknown', name: null, signature: null, message: null, args: [], data: r.data }
  }
  return { call, events, revertError }
}
