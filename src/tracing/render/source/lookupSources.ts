import { type SourceRegistry, withContracts } from '../../../sources/createSourceRegistry.js'
import type { SourceContract } from '../../../sources/types.js'
import type { TraceRun } from '../../tracers/types.js'
import { codeOf } from './toSourceFrames.js'

/** An EIP-7702 delegation designator (0xef0100 ‖ address): an account's pointer, not contract code. */
const isDelegation = (code: Uint8Array) =>
  code.length === 23 && code[0] === 0xef && code[1] === 0x01 && code[2] === 0x00

/**
 * Before a source-level render: the code of each called or created frame that no registered contract matches is
 * looked up (`run.sourceLookup`, Sourcify), once per address, all at once. Gives the registry with
 * what was found (each found contract already matched to that code by the lookup, and matched again
 * here by the registry) and, per address, why a lookup found nothing.
 */
export async function lookupSources(
  run: TraceRun,
): Promise<{ registry: SourceRegistry | undefined; notes: Map<string, string> }> {
  const notes = new Map<string, string>()
  const lookup = run.sourceLookup
  if (!lookup || !run.access) return { registry: run.sources, notes }
  const wanted = new Map<string, Uint8Array>()
  for (const node of run.arena.nodes) {
    if (!node.to) continue
    // A creation whose init code no build output matched: the contract it deployed is looked up (its
    // runtime code matched to the answer by the lookup; its init code then to the answer's creation
    // bytecode, for the constructor's lines). One that deployed nothing (it reverted) cannot be.
    if ((node.kind === 'CREATE' || node.kind === 'CREATE2') && run.sources?.matchCreation(node.input)) continue
    const address = node.to.toLowerCase()
    if (wanted.has(address)) continue
    const code = codeOf(run.access, node.to)
    // No code, code a build output matched, or an EIP-7702 delegation (its target's frame is looked up itself).
    if (!code || code.length === 0 || isDelegation(code) || run.sources?.match(code)) continue
    wanted.set(address, code)
  }
  if (wanted.size === 0) return { registry: run.sources, notes }
  const found: SourceContract[] = []
  await Promise.all(
    [...wanted].map(async ([address, code]) => {
      const result = await lookup(address, code)
      if ('contract' in result) found.push(result.contract)
      else notes.set(address, result.note)
    }),
  )
  return { registry: withContracts(run.sources, found), notes }
}
