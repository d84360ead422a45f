import { execFileSync, spawnSync } from 'node:child_process'
import { copyFileSync, cpSync, existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { build as viteBuild } from 'vite'
import { buildBrowser } from '../../scripts/buildBrowser.js'

const ROOT = resolve(import.meta.dirname, '../..')
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm'

/** What `npm run build` reads: when one is newer than the build's outputs, the project's dist/ is stale. */
const BUILD_INPUTS = ['src', 'worker', 'demo', 'index.html', 'scripts', 'vite.config.ts', 'tsconfig.build.json']
/** One output of each build step (tsc, scripts/buildBrowser.ts, vite build of the explorer). */
const BUILD_OUTPUTS = [
  'dist/node/index.js',
  'dist/node/cli.js',
  'dist/browser/index.js',
  'dist/browser/edgetrace.browser.js',
  'dist/browser/edgetrace.worker.js',
  'dist/browser/edgetrace.sw.js',
  'dist/explorer/index.html',
]

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = 0
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules') continue
    newest = Math.max(newest, newestMtime(join(path, entry)))
  }
  return newest
}

/**
 * Whether the project's dist/ is what `npm run build` would write now: every step's output there and
 * none older than a source it is built from. True on a fresh clone after `npm ci` (its `prepare` builds).
 */
export function distIsFresh(root = ROOT): boolean {
  const outputs = BUILD_OUTPUTS.map((file) => join(root, file))
  if (!outputs.every((file) => existsSync(file))) return false
  const oldestOutput = Math.min(...outputs.map((file) => statSync(file).mtimeMs))
  return BUILD_INPUTS.every((input) => newestMtime(join(root, input)) <= oldestOutput)
}

/**
 * The package as `npm publish` would upload it: `npm pack`'s tarball, written into `into` (its path
 * returned). When the project's dist/ is fresh (CI: `npm ci` built it) that dist is packed as it is
 * (`--ignore-scripts`: no second build). Otherwise — a working tree edited since its last build — the
 * package is staged in a temporary folder (package.json, README.md, bin, src, worker) and built there
 * as `npm run build` does (tsc with declarations, the browser bundles, the explorer page), leaving the
 * project's own dist/ alone for whoever else is using it.
 */
export async function packTarball(into: string): Promise<{ tarball: string; staged: boolean }> {
  let dir = ROOT
  const staged = !distIsFresh()
  if (staged) {
    dir = mkdtempSync(join(into, 'stage-'))
    for (const file of ['package.json', 'README.md']) copyFileSync(join(ROOT, file), join(dir, file))
    for (const folder of ['bin', 'src', 'worker'])
      cpSync(join(ROOT, folder), join(dir, folder), { recursive: true, filter: (from) => !from.endsWith('.test.ts') })
    const tsc = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', join(dir, 'dist')],
      { cwd: ROOT, encoding: 'utf8' },
    )
    // tsc emits despite type errors; those are the type check's to report (npm test runs it first).
    if (!existsSync(join(dir, 'dist/node/index.js')))
      throw new Error(`tsc emitted no dist/node/index.js:\n${tsc.stdout}`)
    await buildBrowser({ outDir: join(dir, 'dist/browser'), quiet: true })
    await viteBuild({
      configFile: join(ROOT, 'vite.config.ts'),
      root: ROOT,
      logLevel: 'warn',
      build: { outDir: join(dir, 'dist/explorer'), emptyOutDir: true },
    })
  }
  const name = execFileSync(NPM, ['pack', '--ignore-scripts', '--silent', '--pack-destination', into], {
    cwd: dir,
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .pop()
  if (!name) throw new Error(`npm pack in ${dir} named no tarball`)
  return { tarball: join(into, name), staged }
}
