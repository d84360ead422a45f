import { bigIntToBytes, bytesToHex, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import type { TracerHooks } from '../tracing/hooks.js'
import type { Hex } from '../types/hex.js'

/** keccak256("Transfer(address,address,uint256)") */
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef' as Hex
/** ERC-7528's pseudo-address for ETH, the emitter of the transfer logs of `traceTransfers`. */
export const ETH_TRANSFER_ADDRESS = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee' as Hex

/** A log of a simulated call, before the block it lands in is hashed. */
export type SimulatedLog = {
  address: Hex
  topics: Hex[]
  data: Hex
  /** Across the whole block, as geth's simulation tracer counts (transfer logs included). */
  logIndex: number
}

const word = (address: Hex): Hex => bytesToHex(setLengthLeft(hexToBytes(address), 32)) as Hex

/**
 * geth's eth_simulateV1 tracer as hooks: every log a call emits, and with `traceTransfers` every
 * movement of ETH (a call's or create's value, a selfdestruct's balance; not DELEGATECALL or
 * CALLCODE) as an ERC-20 Transfer log from ERC-7528's address — kept per frame, so a reverted
 * frame's logs, transfers included, are dropped with it. The log index runs over the block.
 */
export function createSimulationLogRecorder(traceTransfers: boolean) {
  let frames: SimulatedLog[][] = []
  let count = 0
  // A create's transfer is known before its address: filled in when the frame exits.
  const pendingCreate: (SimulatedLog | undefined)[] = []

  const push = (log: Omit<SimulatedLog, 'logIndex'>): SimulatedLog => {
    const entry = { ...log, logIndex: count++ }
    frames[frames.length - 1]!.push(entry)
    return entry
  }

  const hooks: TracerHooks = {
    onEnter(frame) {
      frames.push([])
      let pending: SimulatedLog | undefined
      const moves = frame.kind !== 'DELEGATECALL' && frame.kind !== 'CALLCODE'
      if (traceTransfers && moves && frame.value !== undefined && frame.value > 0n) {
        const to = frame.to ?? ('0x0000000000000000000000000000000000000000' as Hex)
        const log = push({
          address: ETH_TRANSFER_ADDRESS,
          topics: [TRANSFER_TOPIC, word(frame.from), word(to)],
          data: bytesToHex(setLengthLeft(bigIntToBytes(frame.value), 32)) as Hex,
        })
        if (frame.to === undefined) pending = log
      }
      pendingCreate.push(pending)
    },
    onExit(frame) {
      const pending = pendingCreate.pop()
      if (pending && frame.address) pending.topics[2] = word(frame.address)
      if (frame.depth === 0) {
        if (frame.reverted) frames[0] = []
        return
      }
      if (frames.length <= 1) return
      const popped = frames.pop()!
      if (!frame.reverted) frames[frames.length - 1]!.push(...popped)
    },
    onLog(log) {
      push({ address: log.address.toLowerCase() as Hex, topics: [...log.topics], data: bytesToHex(log.data) as Hex })
    },
  }

  return {
    hooks,
    /** Starts the next call of the block. */
    reset() {
      frames = []
      pendingCreate.length = 0
    },
    /** The logs standing after the call (none when it reverted). */
    logs(): SimulatedLog[] {
      return frames[0] ?? []
    },
  }
}
