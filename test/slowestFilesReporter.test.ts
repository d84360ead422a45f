import { execFile } from 'node:child_process'
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'

const repo = resolve(import.meta.dirname, '..')

it('a vitest run ends with its slowest 10 files, slowest first, each with its time', async () => {
  // A real vitest run of 11 files: slow-1 … slow-10 wait 1 … 10 × 200 ms, fast waits nothing.
  const dir = await mkdtemp(join(tmpdir(), 'edgetrace-slowest-'))
  try {
    await symlink(join(repo, 'node_modules'), join(dir, 'node_modules'))
    await writeFile(
      join(dir, 'vitest.config.ts'),
      `import { defineConfig } from 'vitest/config'
import { SlowestFilesReporter } from ${JSON.stringify(join(repo, 'test/setup/slowestFilesReporter.ts'))}
export default defineConfig({ test: { name: 'node', pool: 'forks', maxWorkers: 2, reporters: ['default', new SlowestFilesReporter()] } })
`,
    )
    const file = (ms: number) =>
      `import { it } from 'vitest'\nit('waits', async () => { await new Promise((r) => setTimeout(r, ${ms})) })\n`
    await writeFile(join(dir, 'fast.test.ts'), file(0))
    for (let k = 1; k <= 10; k++) await writeFile(join(dir, `slow-${k}.test.ts`), file(k * 200))

    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(repo, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir],
      { cwd: dir, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }, timeout: 50_000 },
    )
    const at = stdout.indexOf('Slowest 10 test files')
    expect(at, stdout).toBeGreaterThan(-1)
    const rows = stdout
      .slice(at)
      .split('\n')
      .slice(1)
      .filter((line) => line.includes('.test.ts'))
    expect(rows).toHaveLength(10)
    expect(rows.some((row) => row.includes('fast.test.ts'))).toBe(false)
    expect(rows[0]).toMatch(/^ +\d+\.\d s {2}\(import +\d+\.\d s\) +1 tests {2}node +slow-10\.test\.ts$/)
    const seconds = rows.map((row) => Number(row.trim().split(' ')[0]))
    expect(seconds).toEqual([...seconds].sort((a, b) => b - a))
    expect(seconds[0]).toBeGreaterThanOrEqual(2)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})
