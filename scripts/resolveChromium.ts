import { execFile } from 'node:child_process'
import { accessSync, constants, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'

/**
 * Flags of every headless Chromium the browser tests and the browser bench launch: no sandbox
 * (root, containers), no GPU, and nothing that talks to the network on its own.
 * @sparticuz/chromium's own `args` are for AWS Lambda (--single-process, --no-zygote,
 * --disable-web-security, site isolation off, ...): none is needed here and some would change what
 * the tests check (origins, workers), so they are not used.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

const DEBIAN_CHROMIUM = '/usr/bin/chromium'

// Vite evaluates vite.config.ts several times in one vitest run (the root and each project), each
// time as a new module: the choice is kept on globalThis so it is made, and logged, once a process.
const CHOSEN = Symbol.for('edgetrace.resolveChromium')
const memo = globalThis as { [CHOSEN]?: Promise<string> }

/**
 * The Chromium executable to launch: $CHROMIUM_PATH when set, else Debian's /usr/bin/chromium when
 * installed, else the headless build shipped inside the @sparticuz/chromium dev dependency (so
 * `npm install && npm test` needs no browser from the system), extracted once per machine into
 * the temp directory. Logs its choice once per process, in one line.
 */
export function resolveChromium(): Promise<string> {
  memo[CHOSEN] ??= choose().then(({ path, why }) => {
    console.log(`Chromium: ${why}`)
    return path
  })
  return memo[CHOSEN]
}

async function choose(): Promise<{ path: string; why: string }> {
  const fromEnv = process.env.CHROMIUM_PATH
  if (fromEnv) {
    if (!isExecutable(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} is not an executable file`)
    return { path: fromEnv, why: `${fromEnv} (CHROMIUM_PATH)` }
  }
  if (isExecutable(DEBIAN_CHROMIUM)) return { path: DEBIAN_CHROMIUM, why: `${DEBIAN_CHROMIUM} (the system's)` }
  return extractShipped()
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/**
 * @sparticuz/chromium's executablePath() inflates its brotli files into os.tmpdir() (chromium,
 * fonts/, the SwiftShader libraries beside it) and reuses a /tmp/chromium it finds there, whatever
 * wrote it and however complete. So it runs in a child whose TMPDIR is a fresh directory of ours,
 * which is then renamed to one named after the package's version: a directory under that name is
 * always complete, a concurrent run (another worktree's tests, the bench) never sees a half-written
 * binary, and an upgrade of the package extracts anew. The child also keeps the package's
 * import-time environment changes (meant for AWS Lambda) out of this process.
 */
async function extractShipped(): Promise<{ path: string; why: string }> {
  let entry: string
  try {
    entry = createRequire(import.meta.url).resolve('@sparticuz/chromium')
  } catch {
    throw new Error(
      `no Chromium: CHROMIUM_PATH is not set, ${DEBIAN_CHROMIUM} is not installed, and the @sparticuz/chromium dev dependency is missing (npm install)`,
    )
  }
  // entry is <package>/build/cjs/index.cjs; its package.json is not in the package's exports.
  const { version } = JSON.parse(readFileSync(join(dirname(entry), '..', '..', 'package.json'), 'utf8')) as {
    version: string
  }
  const name = `edgetrace-chromium-${version}`
  const dir = join(tmpdir(), name)
  const executable = join(dir, 'chromium')
  const label = `@sparticuz/chromium ${version}, ${executable}`
  if (isExecutable(executable)) return { path: executable, why: `${label} (extracted before)` }

  removeStalePartials(name)
  const partial = mkdtempSync(join(tmpdir(), `${name}.partial-`))
  const started = performance.now()
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['-e', 'require(process.argv[1]).executablePath().then((p) => process.stdout.write(p))', entry],
      { env: { ...process.env, TMPDIR: partial }, timeout: 120_000 },
    )
    if (stdout !== join(partial, 'chromium'))
      throw new Error(`@sparticuz/chromium extracted to ${stdout}, expected ${join(partial, 'chromium')}`)
    renameSync(partial, dir)
  } catch (err) {
    rmSync(partial, { recursive: true, force: true })
    // Another process finished the same extraction first: its copy is as good as ours.
    if (isExecutable(executable)) return { path: executable, why: `${label} (extracted by another process)` }
    throw err
  }
  return { path: executable, why: `${label} (extracted in ${((performance.now() - started) / 1000).toFixed(1)} s)` }
}

/** Partial extractions left by a killed process (each ~200 MB); a live one takes seconds, not ten minutes. */
function removeStalePartials(name: string) {
  for (const entry of readdirSync(tmpdir())) {
    if (!entry.startsWith(`${name}.partial-`)) continue
    const path = join(tmpdir(), entry)
    try {
      if (Date.now() - statSync(path).mtimeMs > 10 * 60_000) rmSync(path, { recursive: true, force: true })
    } catch {
      // Removed meanwhile by another process.
    }
  }
}
