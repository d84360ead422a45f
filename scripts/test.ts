// `npm test`: the whole suite, as CI runs it. The lint first (a second), then the tests (vitest run,
// with any arguments given: `npm test -- test/limits.test.ts`) and the type check (tsc --noEmit)
// side by side: tsc runs at a low priority, on the CPU the tests leave idle while they wait on
// sockets and timers, so it costs the run almost nothing. tsc's output is kept and printed after
// the tests' summary; the exit code is the first failure's.
import { type ChildProcess, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..')
const require = createRequire(import.meta.url)
const bin = (pkg: string, path: string) => resolve(require.resolve(`${pkg}/package.json`), '..', path)

const children = new Set<ChildProcess>()
/** Runs `node script …args` from the project's root; resolves with its exit code and, unless `inherit`, its output. */
function run(args: string[], inherit: boolean, niceness = 0): Promise<{ code: number; output: string }> {
  const command = niceness > 0 ? 'nice' : process.execPath
  const argv = niceness > 0 ? ['-n', String(niceness), process.execPath, ...args] : args
  const child = spawn(command, argv, { cwd: ROOT, stdio: inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'] })
  children.add(child)
  let output = ''
  child.stdout?.on('data', (d: Buffer) => (output += d))
  child.stderr?.on('data', (d: Buffer) => (output += d))
  return new Promise((done) => {
    child.on('error', (err) => done({ code: 1, output: `${output}${err.message}\n` }))
    child.on('close', (code, signal) => {
      children.delete(child)
      done({ code: code ?? (signal ? 1 : 0), output })
    })
  })
}
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    for (const child of children) child.kill(signal)
    process.exit(130)
  })

const lint = await run([bin('@biomejs/biome', 'bin/biome'), 'ci', '--error-on-warnings', '.'], true)
if (lint.code !== 0) process.exit(lint.code)

const started = Date.now()
const typecheck = run([bin('typescript', 'bin/tsc'), '-p', 'tsconfig.json', '--noEmit'], false, 15).then((r) => ({
  ...r,
  seconds: Math.round((Date.now() - started) / 1000),
}))
const tests = await run([bin('vitest', 'vitest.mjs'), 'run', ...process.argv.slice(2)], true)
const types = await typecheck
if (types.code === 0) console.log(`\ntypecheck (tsc --noEmit, beside the tests): no errors, ${types.seconds} s`)
else console.log(`\ntypecheck (tsc --noEmit) failed:\n${types.output}`)
process.exit(tests.code || types.code)
