import type { Hex } from '../../types/hex.js'
import { bundledSignatures } from '../../utils/abi/bundledSignatures.js'
import type { SignatureTable } from '../../utils/abi/createSignatureTable.js'
import { decodeCallData } from '../../utils/abi/decodeCallData.js'
import { type DecodedRevert, decodeRevert } from '../../utils/decodeRevert.js'

/** The ABIs an app supplied for the addresses it calls (edgetrace_previewTransactions' `options.abis`). */
export type PreviewAbis = ReadonlyMap<Hex, SignatureTable>

/** A called function named by its selector. */
export type NamedFunction = { selector: Hex; name: string; signature: string }

/**
 * A call's function and revert, named: the function by the app's ABI for the called address, then
 * the bundled table; a custom error the same way, then by the app's other ABIs (a revert may come up
 * from a contract the call reached). Only names whose types the data fits are given.
 */
export function nameCall(
  to: Hex | undefined,
  input: Hex | undefined,
  revertData: Hex | undefined,
  abis: PreviewAbis | undefined,
): { function?: NamedFunction; revert?: DecodedRevert } {
  const own = to && abis?.get(to.toLowerCase() as Hex)
  const tables = own ? [own, bundledSignatures()] : [bundledSignatures()]
  const out: { function?: NamedFunction; revert?: DecodedRevert } = {}
  const called = to && input ? decodeCallData(input, tables) : undefined
  if (called) out.function = { selector: called.selector as Hex, name: called.name, signature: called.signature }
  if (revertData !== undefined) {
    const others = [...(abis?.values() ?? [])].filter((t) => t !== own)
    out.revert = decodeRevert(revertData, [...tables, ...others])
  }
  return out
}
