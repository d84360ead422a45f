// Part of `npm run bench`: what starting costs, from the built package (dist/, `npm run build`). A
// worker thread (a range worker, a JavaScript tracer's hardened thread) loading its script, and the
// CLI printing --help: each from its one-file bundle (scripts/bundleNode.ts), which is what runs, and
// from tsc's per-file output beside it, for comparison. Wall time and CPU time (the process's, all
// threads), medians of RUNS after one warm-up.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { Worker } from 'node:worker_threads'

const ROOT = resolve(import.meta.dirname, '..')
const RUNS = 7
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/** One thread importing `file` until it says it is loaded: wall and CPU milliseconds. */
async function threadStart(file: string): Promise<{ ms: number; cpuMs: number }> {
  const started = performance.now()
  const cpu = process.cpuUsage()
  await new Promise<void>((done, fail) => {
    const worker = new Worker(
      "import(process.env.SCRIPT).then(() => require('node:worker_threads').parentPort.postMessage('loaded'))",
      { eval: true, env: { SCRIPT: file } },
    )
    worker.once('message', () => void worker.terminate().then(() => done()))
    worker.once('error', fail)
  })
  const used = process.cpuUsage(cpu)
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 }
}

/** `node file --help`: wall and CPU milliseconds (the child's, from its rusage). */
function cliStart(file: string): { ms: number; cpuMs: number } {
  const started = performance.now()
  const run = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, file, '--help'], { encoding: 'utf8' })
  const ms = performance.now() - started
  const [user, system] = run.stderr.trim().split('\n').at(-1)!.split(' ').map(Number)
  return { ms, cpuMs: ((user ?? 0) + (system ?? 0)) * 1000 }
}

async function measure(label: string, run: () => Promise<{ ms: number; cpuMs: number }>) {
  await run()
  const samples: { ms: number; cpuMs: number }[] = []
  for (let i = 0; i < RUNS; i++) samples.push(await run())
  const ms = median(samples.map((s) => s.ms))
  const cpuMs = median(samples.map((s) => s.cpuMs))
  console.log(`  ${label.padEnd(44)} ${ms.toFixed(0).padStart(5)} ms  ${cpuMs.toFixed(0).padStart(5)} CPU-ms`)
  return { ms, cpuMs }
}

async function main() {
  const dist = resolve(ROOT, 'dist/node')
  if (!existsSync(resolve(dist, 'cli.bundle.js'))) throw new Error('dist/ has no bundles: run `npm run build` first')
  console.log(`startup (from dist/, medians of ${RUNS})`)
  for (const name of ['rangeWorker', 'jsTracerWorker']) {
    const bundle = await measure(`${name} thread, bundle`, () =>
      threadStart(resolve(dist, `workers/${name}.bundle.js`)),
    )
    const files = await measure(`${name} thread, per-file`, () => threadStart(resolve(dist, `workers/${name}.js`)))
    console.log(`    bundle: ${(files.cpuMs / bundle.cpuMs).toFixed(1)}× less CPU`)
  }
  const has = spawnSync('/usr/bin/time', ['true']).status === 0
  if (!has) {
    console.log('  (the CLI figures need /usr/bin/time)')
    return
  }
  const bundle = await measure('CLI --help, bundle', async () => cliStart(resolve(dist, 'cli.bundle.js')))
  const files = await measure('CLI --help, per-file', async () => cliStart(resolve(dist, 'cli.js')))
  console.log(`    bundle: ${(files.cpuMs / bundle.cpuMs).toFixed(1)}× less CPU`)
}

await main()
