import { readFileSync } from 'node:fs'
import { createBlock } from '@ethereumjs/block'
import { Mainnet, createCustomCommon } from '@ethereumjs/common'
import { createTxFromRLP } from '@ethereumjs/tx'
import { hexToBytes } from '@ethereumjs/util'
import { createVM } from '@ethereumjs/vm'
import { replayKzg } from '../../src/chain/replayKzg.js'
import type { VerifiedHeader } from '../../src/chain/parseHeader.js'
import { runTracedTransaction } from '../../src/evm/runTracedTransaction.js'
import { createAllocStateSource } from './createAllocStateSource.js'
import { type OverlayStateManager, createOverlayStateManager } from '../../src/state/createOverlayStateManager.js'
import type { TracerHooks } from '../../src/tracing/hooks.js'
import type { TraceBinding } from '../../src/tracing/startTxTrace.js'
import type { StateSource } from '../../src/state/types.js'
import type { WasmEngineState } from '../../src/wasm/wasmEngineState.js'
import { conformanceWasmState } from './conformanceEngine.js'

export type TracetestCase = {
  genesis: { config: { chainId: number }; alloc: Record<string, never>; mixHash?: string }
  context: {
    number: string
    timestamp: string
    gasLimit: string
    miner: string
    difficulty: string
    baseFeePerGas?: string
  }
  input: string
  tracerConfig?: Record<string, unknown>
  result: unknown
}

export type ManifestEntry = {
  file: string
  tracer: string
  hardfork: string
  chainId: number
  block: { prevRandao: string | null; blobBaseFee: number | null; baseFeePerGas: number | null }
}

const num = (v: string | number) => (typeof v === 'number' ? BigInt(v) : BigInt(v))

export function loadManifest(dir: string): ManifestEntry[] {
  return JSON.parse(readFileSync(new URL(`../fixtures/${dir}/manifest.json`, import.meta.url), 'utf8'))
}

export function loadCase(dir: string, file: string): TracetestCase {
  return JSON.parse(readFileSync(new URL(`../fixtures/${dir}/${file}`, import.meta.url), 'utf8'))
}

/**
 * Runs one geth tracetest case as geth's harness does (NOTES.md): pre-state from genesis.alloc, the
 * block context from `context`, the fork from the manifest, the raw transaction applied alone, with
 * the given hooks attached, on the conformance engine (test/src/conformanceEngine.ts) unless told.
 */
export async function runTracetestCase(
  c: TracetestCase,
  m: ManifestEntry,
  hooks: TracerHooks,
  {
    bind,
    source = createAllocStateSource(c.genesis.alloc),
    wasm = conformanceWasmState(),
  }: {
    /** Told what the execution is before it runs (a JavaScript tracer's db and ctx). */
    bind?: ((binding: TraceBinding) => void) | undefined
    /** The pre-state (default: the case's alloc). */
    source?: StateSource
    /** The wasm engine to run on (default: the conformance engine's; undefined: ethereumjs). */
    wasm?: WasmEngineState | undefined
  } = {},
) {
  const common = createCustomCommon({ chainId: m.chainId }, Mainnet, {
    hardfork: m.hardfork,
    customCrypto: { kzg: replayKzg },
  })
  const header: Record<string, unknown> = {
    number: num(c.context.number),
    timestamp: num(c.context.timestamp),
    gasLimit: num(c.context.gasLimit),
    coinbase: c.context.miner,
    difficulty: num(c.context.difficulty),
  }
  if (m.block.baseFeePerGas !== null) header.baseFeePerGas = BigInt(m.block.baseFeePerGas)
  if (m.block.prevRandao !== null) {
    header.mixHash = m.block.prevRandao
    header.difficulty = 0n
  }
  if (common.isActivatedEIP(4844)) {
    header.excessBlobGas = 0n
    header.blobGasUsed = 0n
  }
  const block = createBlock({ header }, { common, skipConsensusFormatValidation: true })
  const pseudo = {
    hash: `0x${'0'.repeat(64)}`,
    number: block.header.number,
    header: block.header,
    common,
  } as VerifiedHeader
  const state: OverlayStateManager = createOverlayStateManager({ source, block: pseudo })
  const vm = await createVM({ common, stateManager: state })
  const input = c.input.startsWith('0x') ? c.input : `0x${c.input}`
  const tx = createTxFromRLP(hexToBytes(input as `0x${string}`), { common })
  bind?.({ state, block, tx, precompiles: vm.evm.precompiles.keys() })
  const result = await runTracedTransaction(
    vm,
    tx,
    block,
    hooks,
    { skipBlockGasLimitValidation: true, skipHardForkValidation: true },
    { engine: { wasm } },
  )
  return { result, state, tx, block, header: pseudo }
}
