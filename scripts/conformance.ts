// npm run conformance [-- --engine wasm|ethereumjs] [--report FILE]: runs every conformance corpus
// (test/conformance/*.test.ts) with vitest, quietly, and prints one line per corpus (a file's
// top-level describe): passed, failed, skipped, then each skip reason with its count; then
// `N passed, M failed`. --engine (default wasm, the product's) is the engine every corpus's servers and EVMs
// run on (EDGETRACE_CONFORMANCE_ENGINE, read by test/src/conformanceEngine.ts); on wasm each corpus's
// line is followed by what the wasm interpreter ran for its file (frames, host steps, fallbacks by
// reason; test/src/useWasmCounters.ts). A skipped case carries its
// reason in its name, after " — " (`it.skip(\`${file} — ${reason}\`, …)`). A file that fails to load,
// a failing hook and an unhandled error count as failures too. Exits non-zero on any failure.
// --report FILE writes every case's outcome as JSON: [{ corpus, case, status, reason?, durationMs }].
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import type { RunnerTask } from 'vitest'
import { startVitest } from 'vitest/node'
import { CONFORMANCE_COUNTERS_ENV, CONFORMANCE_ENGINE_ENV } from '../test/src/conformanceEngine.js'
import type { WasmCounterReport } from '../test/src/useWasmCounters.js'
import { argFlag } from './argFlag.js'
import { DEFAULT_ENGINE } from '../src/wasm/wasmEngineState.js'

type CaseResult = {
  corpus: string
  case: string
  status: 'passed' | 'failed' | 'skipped'
  reason?: string
  durationMs: number
}

const reportAt = process.argv.indexOf('--report')
const reportFile = reportAt >= 0 ? process.argv[reportAt + 1] : undefined
if (reportAt >= 0 && !reportFile) throw new Error('--report needs a file name')
const engine = argFlag('engine') ?? DEFAULT_ENGINE
if (engine !== 'wasm' && engine !== 'ethereumjs') throw new Error(`--engine ${engine}: wasm or ethereumjs`)
// Read by the test processes vitest starts (they inherit this environment).
process.env[CONFORMANCE_ENGINE_ENV] = engine
const countersDir = mkdtempSync(join(tmpdir(), 'edgetrace-conformance-'))
process.env[CONFORMANCE_COUNTERS_ENV] = countersDir

// An empty reporter object replaces vitest's default one; `silent` drops the tests' console output.
const vitest = await startVitest('test', ['test/conformance/'], {
  watch: false,
  reporters: [{}],
  silent: true,
  project: 'node',
})
const files = vitest.state.getFiles().sort((a, b) => a.name.localeCompare(b.name)) // stable order across runs
const unhandled = vitest.state.getUnhandledErrors()
await vitest.close()
const wasmCounters = new Map<string, WasmCounterReport>()
for (const name of readdirSync(countersDir)) {
  const report = JSON.parse(readFileSync(join(countersDir, name), 'utf8')) as WasmCounterReport
  wasmCounters.set(report.file, report)
}
rmSync(countersDir, { recursive: true, force: true })

const results: CaseResult[] = []
/** Each corpus's test file. */
const corpusFile = new Map<string, string>()
const firstLine = (message: string | undefined) => (message ?? 'failed').split('\n')[0]!

/** `hookError`: the error of an enclosing suite (a failed beforeAll skips every test under it). */
function collect(task: RunnerTask, corpus: string, top: boolean, hookError?: string): void {
  corpusFile.set(corpus, basename(task.file.name))
  const durationMs = Math.round(task.result?.duration ?? 0)
  if (task.type === 'test') {
    const dash = task.name.indexOf(' — ')
    const name = dash < 0 ? task.name : task.name.slice(0, dash)
    const declaredReason = dash < 0 ? undefined : task.name.slice(dash + 3)
    const skipped = task.mode === 'skip' || task.mode === 'todo' || task.result?.state === 'skip'
    if (skipped && (declaredReason || !hookError))
      results.push({ corpus, case: name, status: 'skipped', reason: declaredReason ?? 'no reason given', durationMs })
    else if (skipped) results.push({ corpus, case: name, status: 'failed', reason: hookError!, durationMs })
    else if (task.result?.state === 'pass') results.push({ corpus, case: name, status: 'passed', durationMs })
    else
      results.push({
        corpus,
        case: name,
        status: 'failed',
        reason: firstLine(task.result?.errors?.[0]?.message),
        durationMs,
      })
    return
  }
  // A file or a suite: its own errors are a load failure, a throwing describe body or a failing hook.
  const own = task.result?.errors?.length ? firstLine(task.result.errors[0]!.message) : undefined
  const before = results.length
  for (const child of task.tasks)
    collect(child, top && child.type === 'suite' ? child.name : corpus, false, own ?? hookError)
  if (own && !results.slice(before).some((r) => r.status === 'failed' && r.reason === own)) {
    results.push({ corpus, case: task.name, status: 'failed', reason: own, durationMs })
  }
}
for (const file of files) collect(file, file.name, true)
for (const error of unhandled) {
  results.push({
    corpus: 'unhandled errors',
    case: '(outside any test)',
    status: 'failed',
    reason: firstLine((error as Error)?.message ?? String(error)),
    durationMs: 0,
  })
}

const corpora = [...new Set(results.map((r) => r.corpus))]
for (const corpus of corpora) {
  const mine = results.filter((r) => r.corpus === corpus)
  const count = (status: CaseResult['status']) => mine.filter((r) => r.status === status).length
  console.log(`${corpus}: ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped`)
  const reasons = new Map<string, number>()
  for (const r of mine) if (r.status === 'skipped') reasons.set(r.reason!, (reasons.get(r.reason!) ?? 0) + 1)
  for (const [reason, n] of reasons) console.log(`  skipped ${n}: ${reason}`)
  for (const r of mine) if (r.status === 'failed') console.log(`  FAILED ${r.case}: ${r.reason}`)
  // Once a file, after its last corpus.
  const file = corpusFile.get(corpus) ?? ''
  const lastOfFile = !corpora.slice(corpora.indexOf(corpus) + 1).some((c) => corpusFile.get(c) === file)
  const wasm = engine === 'wasm' && lastOfFile ? wasmCounters.get(file) : undefined
  if (wasm) {
    const { frames, steppedFrames, directSteps, hostSteps, hostSloads, fallbacks } = wasm.counters
    const by = Object.entries(fallbacks).filter(([, n]) => n > 0)
    const fell = by.length === 0 ? 'none' : by.map(([reason, n]) => `${reason} ${n}`).join(', ')
    console.log(
      `  wasm (${wasm.file}): ${frames} frames (${steppedFrames} step by step, ${directSteps} of their steps handed to the tracer directly), ${hostSteps} host steps, ${hostSloads} host SLOADs; fallbacks: ${fell}`,
    )
  }
}
const passed = results.filter((r) => r.status === 'passed').length
const failed = results.filter((r) => r.status === 'failed').length
if (reportFile) writeFileSync(reportFile, `${JSON.stringify(results, null, 2)}\n`)
console.log(`${passed} passed, ${failed} failed (engine ${engine})`)
// vitest sets process.exitCode on any failure it saw; no cases at all is a failure too.
process.exit(failed > 0 || results.length === 0 || process.exitCode ? 1 : 0)
