// npm run fuzz [-- --seed N] [--count N] [--ws-count N] [--json FILE]: the long fuzz run. Starts anvil
// (with a contract and a mined transaction) and an edgetrace server in front of it, sends `count`
// seeded malformed requests over HTTP and `ws-count` over WebSocket (test/src/fuzzRequests.ts says
// what each is owed), then checks the server still answers and still batches its upstream calls.
// Prints the seed and every finding (grouped by cause, with examples); exits 1 on any.
import { writeFileSync } from 'node:fs'
import { formatFuzzReport, runFuzz } from '../test/src/runFuzz.js'
import { startFuzzTarget } from '../test/src/startFuzzTarget.js'
import { argFlag } from './argFlag.js'

function count(name: string, fallback: number): number {
  const raw = argFlag(name)
  if (raw === undefined) return fallback
  const n = Number(raw)
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got ${raw}`)
  return n
}

const seed = count('seed', Math.floor(Math.random() * 2 ** 31))
const httpCount = count('count', 20_000)
const wsCount = count('ws-count', Math.ceil(httpCount / 10))
const jsonFile = argFlag('json')

const processErrors: string[] = []
process.on('unhandledRejection', (err) =>
  processErrors.push(`unhandledRejection: ${err instanceof Error ? err.message : String(err)}`),
)
process.on('uncaughtException', (err) => processErrors.push(`uncaughtException: ${err.message}`))

console.log(
  `fuzz: seed ${seed} (rerun with --seed ${seed}), ${httpCount} requests over HTTP, ${wsCount} over WebSocket`,
)
const target = await startFuzzTarget()
let exitCode = 0
try {
  let lastPrint = 0
  const report = await runFuzz({
    url: target.url,
    wsUrl: target.wsUrl,
    seed,
    count: httpCount,
    wsCount,
    context: target.context,
    onProgress: (done, total) => {
      if (Date.now() - lastPrint < 5000 && done < total) return
      lastPrint = Date.now()
      console.log(`  ${done} of ${total}`)
    },
  })
  console.log(formatFuzzReport(report))
  const after = await target.checkStillServing()
  for (const line of [...after, ...processErrors]) console.log(`after the run: ${line}`)
  if (after.length === 0 && processErrors.length === 0)
    console.log('after the run: still serving, upstream batching intact')
  if (jsonFile) writeFileSync(jsonFile, `${JSON.stringify({ ...report, after, processErrors }, null, 2)}\n`)
  exitCode = report.findings.length > 0 || after.length > 0 || processErrors.length > 0 ? 1 : 0
} finally {
  await target.stop()
}
process.exit(exitCode)
