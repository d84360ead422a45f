import type { Hex } from '../../../types/hex.js'
import { type SignalFrame, stands } from './createSignalFrameRecorder.js'
import type { PreviewSignal } from './spenderSignals.js'

/**
 * The signals of each previewed call's call tree:
 * - `selfDestruct`: a SELFDESTRUCT whose frame stands (none around it rolled back), with the
 *   contract, the beneficiary and the balance it moves;
 * - `valueToNonPayable`: ether sent by a CALL or CALLCODE (not to a precompile) into a frame that
 *   reverted with empty data before calling anything — what Solidity's check for a function that
 *   is not payable, or a contract with no receive/fallback, does first. A frame that reverts with
 *   a reason, or after calls of its own, is not said (it took a path, and failed on it). The value
 *   stays with the sender; `callFailed` says whether the whole call failed with it.
 */
export function frameSignals(trees: readonly (readonly SignalFrame[])[]): PreviewSignal[] {
  const out: PreviewSignal[] = []
  trees.forEach((frames, call) => {
    frames.forEach((f, at) => {
      if (f.kind === 'SELFDESTRUCT' && stands(frames, at)) {
        out.push({
          kind: 'selfDestruct',
          severity: 'danger',
          call,
          contract: f.from,
          beneficiary: f.to as Hex,
          value: f.value ?? 0n,
        })
      }
      const sendsValue = (f.kind === 'CALL' || f.kind === 'CALLCODE') && (f.value ?? 0n) > 0n && !f.precompile
      // A reverted frame ran code: an address without code runs nothing and never reverts.
      const refused = f.reverted && f.output === '0x' && !frames.some((g) => g.parent === at)
      if (sendsValue && refused) {
        out.push({
          kind: 'valueToNonPayable',
          severity: 'warning',
          call,
          depth: f.depth,
          from: f.from,
          to: f.to as Hex,
          value: f.value!,
          callFailed: frames[0]!.reverted,
        })
      }
    })
  })
  return out
}
