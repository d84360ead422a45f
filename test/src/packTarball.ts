import { execFileSync, spawnSync } from 'node:child_process'
import { copyFileSync, cpSync, existsSync, mkdtempSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { build as viteBuild } from 'vite'
import { buildBrowser } from '../../scripts/buildBrowser.js'
import { distIsFresh } from './distIsFresh.js'

const ROOT = resolve(import.meta.dirname, '../..')
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm'

export { distIsFresh }

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
