// npm run conformance [-- --report FILE]: runs every conformance corpus (test/conformance/*.test.ts)
// and prints one line per corpus (passed, failed, skipped with reasons), then `N passed, M failed`.
// Exits non-zero on any failure. --report writes every case's outcome as JSON.
import { writeFileSync } from 'node:fs'
import { startVitest } from 'vitest/node'

type Task = { name: string; type: string; mode?: string; tasks?: Task[]; result?: { state?: string; duration?: number; errors?: { message?: string }[] } }
type CaseResult = { corpus: string; case: string; status: 'passed' | 'failed' | 'skipped'; reason?: string; durationMs: number }

const reportAt = process.argv.indexOf('--report')
const reportFile = reportAt > 0 ? process.argv[reportAt + 1] : undefined

const vitest = await startVitest('test', ['test/conformance/'], { watch: false, reporters: [{}] as never, silent: true })
const files = (vitest?.state.getFiles() ?? []) as unknown as Task[]
await vitest?.close()

const results: CaseResult[] = []
let loadFailures = 0
function collect(task: Task, corpus: string) {
  if (task.type === 'test') {
    const skipped = task.mode === 'skip' || task.mode === 'todo' || task.result?.state === 'skip'
    const [name, reason] = task.name.split(' — ')
    const status = skipped ? 'skipped' : task.result?.state === 'pass' ? 'passed' : 'failed'
    const entry: CaseResult = { corpus, case: name!, status, durationMs: Math.round(task.result?.duration ?? 0) }
    if (status === 'skipped') entry.reason = reason ?? 'skipped'
    if (status === 'failed') entry.reason = (task.result?.errors?.[0]?.message ?? 'failed').split('\n')[0]
    results.push(entry)
    return
  }
  for (const child of task.tasks ?? []) collect(child, task.type === 'suite' && corpus === '' ? child.name : corpus === '' ? task.name : corpus)
}
for (const file of files) {
  if (file.result?.state === 'fail' && !(file.tasks ?? []).length) loadFailures++
  for (const suite of file.tasks ?? []) collect(suite, suite.type === 'suite' ? suite.name : file.name)
}

const corpora = [...new Set(results.map((r) => r.corpus))]
for (const corpus of corpora) {
  const mine = results.filter((r) => r.corpus === corpus)
  const count = (s: string) => mine.filter((r) => r.status === s).length
  console.log(`${corpus}: ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped`)
  const reasons = new Map<string, number>()
  for (const r of mine) if (r.status === 'skipped') reasons.set(r.reason!, (reasons.get(r.reason!) ?? 0) + 1)
  for (const [reason, n] of reasons) console.log(`  skipped ${n}: ${reason}`)
  for (const r of mine) if (r.status === 'failed') console.log(`  FAILED ${r.case}: ${r.reason}`)
}
const passed = results.filter((r) => r.status === 'passed').length
const failed = results.filter((r) => r.status === 'failed').length + loadFailures
if (reportFile) writeFileSync(reportFile, `${JSON.stringify(results, null, 2)}\n`)
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 || results.length === 0 ? 1 : 0)
