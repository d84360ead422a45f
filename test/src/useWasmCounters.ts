// A conformance file's report of what the wasm interpreter ran (`npm run conformance -- --engine
// wasm`): the file's frames, host steps and fallbacks, written where EDGETRACE_CONFORMANCE_COUNTERS
// names (scripts/conformance.ts prints them beside each corpus) and, for corpora traced only at call
// level, required to be more than none.
import { mkdirSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { afterAll, expect } from 'vitest'
import { type WasmEngineCounters, newWasmEngineCounters } from '../../src/wasm/createWasmEngine.js'
import type { EngineKind } from '../../src/wasm/wasmEngineState.js'
import {
  CONFORMANCE_COUNTERS_ENV,
  addWasmCounters,
  conformanceEngine,
  conformanceWasmState,
} from './conformanceEngine.js'

export type WasmCounterReport = { file: string; engine: EngineKind; counters: WasmEngineCounters }

/**
 * Registers the file's afterAll that reports its wasm counters: the sum of every source `track`
 * was given (a server's `engine.wasm?.counters`, a snapshot a worker sent) and, for runTracetestCase,
 * what this file added to the process's direct state. With `expectFrames` on the wasm engine, the
 * afterAll fails unless the wasm ran at least one frame (the corpus is traced at call level only, so
 * nothing sends it back to ethereumjs by design). Call at a file's top level.
 */
export function useWasmCounters(testFile: string, { expectFrames }: { expectFrames: boolean }) {
  const sources: (() => WasmEngineCounters | undefined)[] = []
  const direct = conformanceWasmState()?.counters
  const directBefore = newWasmEngineCounters()
  if (direct) addWasmCounters(directBefore, direct)
  afterAll(() => {
    const engine = conformanceEngine()
    const counters = newWasmEngineCounters()
    for (const source of sources) {
      const c = source()
      if (c) addWasmCounters(counters, c)
    }
    if (direct) {
      const mine = newWasmEngineCounters()
      addWasmCounters(mine, direct)
      counters.frames += mine.frames - directBefore.frames
      counters.steppedFrames += mine.steppedFrames - directBefore.steppedFrames
      counters.directSteps += mine.directSteps - directBefore.directSteps
      counters.hostSteps += mine.hostSteps - directBefore.hostSteps
      counters.hostSloads += mine.hostSloads - directBefore.hostSloads
      for (const reason of Object.keys(mine.fallbacks) as (keyof WasmEngineCounters['fallbacks'])[])
        counters.fallbacks[reason] += mine.fallbacks[reason] - directBefore.fallbacks[reason]
    }
    const file = basename(testFile)
    const dir = process.env[CONFORMANCE_COUNTERS_ENV]
    if (dir) {
      mkdirSync(dir, { recursive: true })
      const report: WasmCounterReport = { file, engine, counters }
      writeFileSync(join(dir, `${file}.json`), `${JSON.stringify(report)}\n`)
    }
    if (engine === 'wasm' && expectFrames) expect(counters.frames, `${file}: wasm frames`).toBeGreaterThan(0)
  })
  return {
    /** Counts what this source ran (read at the file's end). */
    track(
      source:
        | { engine: { wasm?: { counters: WasmEngineCounters } | undefined } }
        | (() => WasmEngineCounters | undefined),
    ) {
      sources.push(typeof source === 'function' ? source : () => source.engine.wasm?.counters)
    },
  }
}
