import type { Hex } from '../../types/hex.js'
import { type SignatureTable, createSignatureTable } from '../../utils/abi/createSignatureTable.js'
import { parseJsonAbi } from '../../utils/abi/parseJsonAbi.js'
import { ParamError } from '../params.js'
import { describe, parseAddress } from '../parsers.js'

/** Most addresses `options.abis` may name. */
export const MAX_PREVIEW_ABIS = 32
/** Most ABI items all of `options.abis` may hold together. */
export const MAX_PREVIEW_ABI_ITEMS = 4000

/**
 * edgetrace_previewTransactions' `options.abis`: `{ "0x<address>": <JSON ABI> }`, the ABIs an app
 * knows for the addresses it calls, each as a signature table (functions, errors, events). Bounded:
 * 32 addresses, 4,000 items in all (1,000 in one ABI).
 */
export function parsePreviewAbis(raw: unknown): Map<Hex, SignatureTable> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ParamError(`options.abis: expected an object of address → JSON ABI, got ${describe(raw)}`)
  }
  const entries = Object.entries(raw)
  if (entries.length > MAX_PREVIEW_ABIS) {
    throw new ParamError(`options.abis: ${entries.length} addresses, at most ${MAX_PREVIEW_ABIS}`)
  }
  const out = new Map<Hex, SignatureTable>()
  let items = 0
  for (const [key, abi] of entries) {
    let address: Hex
    try {
      address = parseAddress(key)
    } catch (err) {
      throw new ParamError(`options.abis: key ${describe(key)} is not an address: ${(err as Error).message}`)
    }
    try {
      const parsed = parseJsonAbi(abi)
      items += parsed.length
      if (items > MAX_PREVIEW_ABI_ITEMS) throw new Error(`: more than ${MAX_PREVIEW_ABI_ITEMS} ABI items in all`)
      out.set(address, createSignatureTable(parsed))
    } catch (err) {
      throw new ParamError(`options.abis["${key}"]${(err as Error).message}`)
    }
  }
  return out
}
