import { bytes, quantity } from '../../../utils/hex.js'
import type { Hex } from '../../../types/hex.js'
import type { CallTraceArena, VmFrame } from '../../recorder/types.js'
import type { StateAccess } from '../../state/collectStateAccess.js'

export type VmTraceJson = { code: string; ops: unknown[] }

export type VmTraceOptions = {
  /**
   * OpenEthereum's shape (`--trace.compat`): no `op` and `idx`, and no undefined opcode listed.
   * Without it, the reference daemon's: each op also names its opcode (geth's name) and carries
   * `idx`, its path — `idxPrefix`, then the index of the calling op at each level, then its own.
   */
  compat: boolean
  /** `"<transaction index>-"` for a transaction of a block or a call of a list; "" for a lone call. */
  idxPrefix: string
}

/**
 * Parity's vmTrace from the recorded ops: per frame its code and, per op, `cost`, `ex` (`used` gas
 * left after the op, the values it pushed, the memory it wrote, the slot it stored; null when the
 * op failed), `pc`, and `sub` — the VM trace of the frame the op entered. The code of a called frame
 * is the code the state manager saw at its code address (or the code a create earlier in the same
 * transaction deployed there); a create's is its init code.
 */
export function toVmTrace(
  arena: CallTraceArena,
  access: StateAccess | undefined,
  { compat, idxPrefix }: VmTraceOptions,
): VmTraceJson | null {
  const root = arena.vmFrames[0]
  if (!root) return null
  const deployed = new Map<string, Uint8Array>()
  const codeOf = (frame: VmFrame): string => {
    const node = arena.nodes[frame.node]!
    if (node.kind === 'CREATE' || node.kind === 'CREATE2') {
      return bytes(node.input)
    }
    const address = (node.to ?? '0x') as Hex
    const mine = deployed.get(address)
    if (mine) return bytes(mine)
    return bytes(access?.pre.get(address)?.code ?? new Uint8Array(0))
  }
  const render = (frame: VmFrame, prefix: string): VmTraceJson => {
    const node = arena.nodes[frame.node]!
    const code = codeOf(frame)
    const listed = compat ? frame.ops.filter((op) => !op.invalid) : frame.ops
    const ops = listed.map((op, i) => {
      // Every call and create has a sub-trace (with no ops when no code ran), except a selfdestruct's
      // transfer; a create's cost includes the gas it hands to the init code.
      const child = op.sub !== undefined ? arena.vmFrames[op.sub]! : undefined
      const sub = child && arena.nodes[child.node]!.kind !== 'SELFDESTRUCT' ? render(child, `${prefix}${i}-`) : null
      const isCreate = op.op === 0xf0 || op.op === 0xf5
      const cost = isCreate && child ? op.cost + arena.nodes[child.node]!.gas : op.cost
      const json: Record<string, unknown> = {
        cost: Number(cost),
        ex:
          op.used === undefined
            ? null
            : {
                mem: op.mem ? { data: bytes(op.mem.data), off: op.mem.off } : null,
                push: op.push.map((v) => quantity(v)),
                store: op.store ? { key: quantity(op.store.key), val: quantity(op.store.val) } : null,
                used: Number(op.used),
              },
        pc: op.pc,
        sub,
      }
      if (!compat) {
        json.op = op.name
        json.idx = `${prefix}${i}`
      }
      return json
    })
    // Code a create deployed runs as that address's code for later calls in the same transaction.
    if ((node.kind === 'CREATE' || node.kind === 'CREATE2') && node.to && !node.reverted)
      deployed.set(node.to, node.output)
    return { code, ops }
  }
  return render(root, idxPrefix)
}
