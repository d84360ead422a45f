import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import { CliError, USAGE, parseCliArgs } from '../src/node/parseCliArgs.js'
import { type RunningEdgetrace, type StartEdgetraceParameters, startEdgetrace } from '../src/node/startEdgetrace.js'
import { type BeaconFixture, createBeaconFixture, executionPayloadHeaderOf } from './src/beaconFixture.js'
import { type Proxy, createProxy } from './src/createProxy.js'
import { fetchBlocks } from './src/fetchBlocks.js'
import { rpcResult } from './src/rpc.js'
import { runCli } from './src/runCli.js'
import { CLI_ARGS } from './src/cliCommand.js'

// Trust modes through the server's start: consensus with a checkpoint given, pinned or trusted on
// first use (a temporary --datadir), resumed from what was verified last time, refused when too old
// or when the beacon node serves another chain; checkpoint and upstream; and the flags' contradictions.
// The beacon chain is test/src/beaconFixture.ts's, its blocks carrying a real anvil's.

type Block = Record<string, string>
const MINED = 80
/** The beacon chain's clock is this one's: slot NOW_SLOT is now (every head the tests move to is past). */
const NOW_SLOT = 100

let anvil: AnvilInstance
let proxy: Proxy
let real: Block[]
let beacon: BeaconFixture
let served: { url: string; close(): Promise<void> }
let datadirs: string[] = []

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`
const gvr = () => hex(beacon.genesisValidatorsRoot)

async function datadir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'edgetrace-trust-'))
  datadirs.push(dir)
  return dir
}

/** A chain of anvil's blocks whose clock is `agoSeconds` past its slot NOW_SLOT. */
function fixtureAt(agoSeconds = 0) {
  const fixture = createBeaconFixture({
    executionAt: (slot) => executionPayloadHeaderOf(real[slot]!),
    genesisTime: Math.floor(Date.now() / 1000) - NOW_SLOT * 6 - agoSeconds,
  })
  fixture.head = 40
  return fixture
}

beforeAll(async () => {
  anvil = await startAnvil()
  await rpcResult(anvil.url, 'anvil_mine', [`0x${MINED.toString(16)}`])
  real = await fetchBlocks(anvil.url, 0, MINED)
  beacon = fixtureAt()
  served = await beacon.serve()
  proxy = await createProxy(anvil.url)
}, 60_000)
afterAll(async () => {
  await served?.close()
  await proxy?.stop()
  await anvil?.stop()
  for (const dir of datadirs) await rm(dir, { recursive: true, force: true })
  datadirs = []
})

async function start(
  beaconOptions: StartEdgetraceParameters['beacon'],
  more: Partial<StartEdgetraceParameters> = {},
): Promise<RunningEdgetrace> {
  return startEdgetrace({
    upstream: anvil.url,
    port: 0,
    hardfork: 'prague',
    api: ['eth'],
    workers: { threads: 0 },
    beacon: beaconOptions,
    ...more,
  })
}

/** The CLI's flags for a server on anvil (no worker threads, any port): upstream mode unless more are given. */
const cliArgs = () => ['--upstream', anvil.url, '--hardfork', 'prague', '--http.port', '0', '--workers', '0']

/** The error a start stops with, or undefined when it started (the server is then closed). */
function stopsWith(starting: Promise<RunningEdgetrace>): Promise<Error | undefined> {
  return starting.then(
    async (s) => {
      await s.close()
      return undefined
    },
    (e: unknown) => e as Error,
  )
}

async function trustOf(server: RunningEdgetrace) {
  return rpcResult(server.url, 'edgetrace_trust')
}

describe('trust on first use, pinned for later starts', () => {
  it("first start takes the beacon node's finalized root and pins it; the next resumes from the newest finalized root verified", async () => {
    const dir = await datadir()
    const firstRoot = hex(beacon.rootAt(24)) // the fixture's finalized block at head 40
    const first = await start({ url: served.url, datadir: dir })
    const file = join(dir, 'beacon', `${gvr()}.json`)
    try {
      expect(first.beaconTrust).toMatchObject({ checkpoint: firstRoot, source: 'first use', pinnedNow: true })
      expect(first.beaconTrust?.pinFile).toBe(file)
      expect((await stat(file)).mode & 0o777).toBe(0o600)
      expect((await stat(join(dir, 'beacon'))).mode & 0o777).toBe(0o700)
      const pin = JSON.parse(await readFile(file, 'utf8'))
      expect(pin).toMatchObject({
        checkpoint: firstRoot,
        source: 'first use',
        lastFinalized: { root: firstRoot, slot: 24 },
      })
      expect(Date.parse(pin.pinnedAt)).toBeGreaterThan(Date.now() - 60_000)
      expect(await trustOf(first)).toMatchObject({ mode: 'consensus', checkpoint: firstRoot, trustedOnFirstUse: true })
      // Finality moves; the client, brought up to date (as a request does once a slot), stores the newer finalized root.
      beacon.head = 56
      await first.lightClient!.sync()
      expect(await rpcResult(first.url, 'eth_blockNumber')).toBe('0x37')
      for (let i = 0; i < 50 && JSON.parse(await readFile(file, 'utf8')).lastFinalized.slot !== 32; i++)
        await new Promise((resolve) => setTimeout(resolve, 20))
      expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({
        checkpoint: firstRoot,
        lastFinalized: { root: hex(beacon.rootAt(32)), slot: 32 },
      })
    } catch (err) {
      beacon.head = 40
      throw err
    } finally {
      await first.close()
    }
    const second = await start({ url: served.url, datadir: dir })
    try {
      expect(second.beaconTrust).toMatchObject({
        checkpoint: firstRoot,
        source: 'first use',
        pinnedNow: false,
        resumedFrom: { root: hex(beacon.rootAt(32)), slot: 32 },
      })
      expect(await trustOf(second)).toMatchObject({ mode: 'consensus', checkpoint: firstRoot })
      expect(await rpcResult(second.url, 'eth_blockNumber')).toBe('0x37')
    } finally {
      await second.close()
      beacon.head = 40
    }
  }, 60_000)

  it('a --checkpoint that differs from the pinned one replaces it, and says which it replaced', async () => {
    const dir = await datadir()
    const first = await start({ url: served.url, datadir: dir })
    await first.close()
    const given = hex(beacon.rootAt(8))
    const second = await start({ url: served.url, datadir: dir, checkpoint: given })
    try {
      expect(second.beaconTrust).toMatchObject({
        checkpoint: given,
        source: 'flag',
        pinnedNow: true,
        replaced: hex(beacon.rootAt(24)),
      })
      const pin = JSON.parse(await readFile(join(dir, 'beacon', `${gvr()}.json`), 'utf8'))
      expect(pin).toMatchObject({ checkpoint: given, source: 'flag' })
      expect(await trustOf(second)).toMatchObject({ mode: 'consensus', checkpoint: given, trustedOnFirstUse: false })
    } finally {
      await second.close()
    }
  }, 60_000)

  it('a pinned checkpoint the beacon node no longer serves stops the start, saying which, since when, and what to do', async () => {
    const dir = await datadir()
    const gone = `0x${'5a'.repeat(32)}`
    const file = join(dir, 'beacon', `${gvr()}.json`)
    await start({ url: served.url, datadir: dir }).then((s) => s.close())
    await writeFile(
      file,
      JSON.stringify({ checkpoint: gone, pinnedAt: '2026-01-02T03:04:05.000Z', source: 'first use' }),
    )
    const failed = await stopsWith(start({ url: served.url, datadir: dir }))
    expect(failed?.message).toContain(
      `the beacon node ${served.url} serves no light-client bootstrap for the checkpoint ${gone} (pinned since 2026-01-02T03:04:05.000Z in ${file})`,
    )
    expect(failed?.message).toContain('HTTP 404')
    expect(failed?.message).toContain('give a recent finalized root with --checkpoint ROOT (it replaces the pin)')
  }, 60_000)

  it('a data directory that cannot be used stops the start, naming the file and what to do', async () => {
    const notADir = join(await datadir(), 'a file')
    await writeFile(notADir, '')
    const err = await stopsWith(start({ url: served.url, datadir: notADir }))
    expect(err?.message).toContain(
      `the pinned checkpoint ${join(notADir, 'beacon', `${gvr()}.json`)} cannot be read: ENOTDIR`,
    )
    expect(err?.message).toContain('give another --datadir DIR')
  }, 60_000)

  it('without a data directory nothing is pinned: each start trusts the beacon node anew', async () => {
    const server = await start({ url: served.url })
    try {
      expect(server.beaconTrust).toMatchObject({ source: 'first use', pinnedNow: true, pinFile: undefined })
    } finally {
      await server.close()
    }
  }, 60_000)
})

describe('weak subjectivity', () => {
  it('refuses a checkpoint older than 14 days, saying its age and how to force it; --checkpoint.force takes it', async () => {
    const old = fixtureAt(20 * 86_400)
    const oldServed = await old.serve()
    try {
      const root = hex(old.rootAt(8))
      const err = await stopsWith(start({ url: oldServed.url, checkpoint: root }))
      expect(err?.name).toBe('CheckpointTooOldError')
      expect(err?.message).toContain(
        `the checkpoint ${root} (slot 8) is 20 days old, beyond the weak-subjectivity period (14 days)`,
      )
      expect(err?.message).toContain('--checkpoint.force to take this one anyway')
      const forced = await start({ url: oldServed.url, checkpoint: root, force: true })
      try {
        expect(await trustOf(forced)).toMatchObject({ mode: 'consensus', checkpoint: root })
      } finally {
        await forced.close()
      }
    } finally {
      await oldServed.close()
    }
  }, 60_000)
})

describe('which beacon chain', () => {
  async function startRefused(chainId: string, beaconOptions: StartEdgetraceParameters['beacon']) {
    proxy.hooks = { transform: (c, result) => (c.method === 'eth_chainId' ? chainId : result) }
    try {
      return await stopsWith(
        startEdgetrace({
          upstream: proxy.url,
          port: 0,
          workers: { threads: 0 },
          beacon: beaconOptions,
        }),
      )
    } finally {
      proxy.hooks = {}
    }
  }

  it("a known network's config is edgetrace's own: a beacon node of another chain is refused, naming both genesis roots", async () => {
    const err = await startRefused('0x1', { url: served.url })
    expect(err?.message).toBe(
      `the beacon node ${served.url} serves another chain than mainnet: its genesis validators root is ${gvr()}, mainnet's is 0x4b363db94e286120d76eb905340fdd4e54bfe9f06bf33ff6cf5ad27f511bfe95`,
    )
  })

  it('a --network whose execution chain is not the upstream’s is refused, naming both chain ids', async () => {
    const err = await startRefused('0x7a69', { url: served.url, network: 'sepolia' })
    expect(err).toBeInstanceOf(CliError)
    expect(err?.message).toContain('--network sepolia is execution chain 11155111, but the upstream is chain 31337')
  })

  it('--beacon.config for a known network is refused', async () => {
    const err = await startRefused('0xaa36a7', { url: served.url, configKeys: { PRESET_BASE: 'mainnet' } })
    expect(err?.message).toContain(
      "--beacon.config for sepolia (chain id 11155111): a known network's config is edgetrace's own",
    )
  })

  it('a Bor chain keeps its validator-set chain: consensus mode there is refused', async () => {
    const err = await startRefused('0x89', { url: served.url })
    expect(err).toBeInstanceOf(CliError)
    expect(err?.message).toContain(
      "trust mode consensus on Polygon PoS mainnet (chain id 137): a Bor chain's blocks are sealed by its validator set, not by Ethereum's beacon chain",
    )
  })

  it("--beacon.config's keys stand for the node's /eth/v1/config/spec (a config whose forks are not the chain's fails the signatures)", async () => {
    const wrongForks = {
      PRESET_BASE: 'minimal',
      GENESIS_FORK_VERSION: '0x00000001',
      CAPELLA_FORK_VERSION: '0x03000001',
      CAPELLA_FORK_EPOCH: '0',
      SECONDS_PER_SLOT: '6',
    }
    const err = await stopsWith(start({ url: served.url, checkpoint: hex(beacon.rootAt(8)), configKeys: wrongForks }))
    expect(err?.message).toMatch(/light client: .* does not verify/)
  }, 60_000)
})

describe('edgetrace_trust in each mode', () => {
  it('checkpoint: the block hash; upstream: null; consensus: the beacon root', async () => {
    const none = { beaconNode: null, finalized: null, optimistic: null, syncCommitteePeriod: null, participation: null }
    const linked = await startEdgetrace({
      upstream: anvil.url,
      port: 0,
      hardfork: 'prague',
      workers: { threads: 0 },
      checkpoint: real[10]!.hash,
    })
    try {
      expect(await trustOf(linked)).toEqual({ mode: 'checkpoint', checkpoint: real[10]!.hash, ...none })
    } finally {
      await linked.close()
    }
    const open = await startEdgetrace({ upstream: anvil.url, port: 0, hardfork: 'prague', workers: { threads: 0 } })
    try {
      expect(await trustOf(open)).toEqual({ mode: 'upstream', checkpoint: null, ...none })
    } finally {
      await open.close()
    }
  }, 60_000)
})

describe('--trust and its flags', () => {
  const args = (...more: string[]) => ['--upstream', 'http://127.0.0.1:1', ...more]
  const root = `0x${'ab'.repeat(32)}`

  it('defaults: consensus with a beacon node, checkpoint with a checkpoint alone, upstream otherwise', () => {
    expect(parseCliArgs(args()).trust).toBe('upstream')
    expect(parseCliArgs([]).trust).toBe('upstream')
    expect(parseCliArgs(args('--checkpoint', root)).trust).toBe('checkpoint')
    expect(parseCliArgs(args('--beacon.upstream', 'http://b')).trust).toBe('consensus')
    expect(parseCliArgs(args('--beacon.upstream', 'http://b', '--checkpoint', root)).trust).toBe('consensus')
    expect(parseCliArgs(args('--trust', 'consensus', '--beacon.upstream', 'http://b')).trust).toBe('consensus')
    expect(
      parseCliArgs(
        args('--beacon.upstream', 'http://b', '--network', 'hoodi', '--datadir', '/d', '--checkpoint.force'),
      ),
    ).toMatchObject({ trust: 'consensus', network: 'hoodi', datadir: '/d', checkpointForce: true })
  })

  it.each([
    [['--trust', 'consensus'], '--trust consensus needs --beacon.upstream URL'],
    [['--trust', 'upstream', '--checkpoint', root], '--trust upstream with --checkpoint'],
    [['--trust', 'upstream', '--beacon.upstream', 'http://b'], '--trust upstream with --beacon.upstream'],
    [
      ['--trust', 'checkpoint', '--beacon.upstream', 'http://b', '--checkpoint', root],
      '--trust checkpoint with --beacon.upstream',
    ],
    [['--trust', 'checkpoint'], '--trust checkpoint needs --checkpoint HASH'],
    [['--trust', 'beacon'], '--trust expects consensus, checkpoint or upstream, got "beacon"'],
    [
      ['--network', 'holesky', '--beacon.upstream', 'http://b'],
      '--network expects mainnet, sepolia, hoodi, got "holesky"',
    ],
    [
      ['--network', 'mainnet'],
      '--network mainnet goes with trust mode consensus (--beacon.upstream URL); this start is in trust mode upstream',
    ],
    [
      ['--checkpoint', root, '--checkpoint.force'],
      '--checkpoint.force goes with trust mode consensus (--beacon.upstream URL); this start is in trust mode checkpoint',
    ],
    [['--beacon.config', 'c.yaml'], '--beacon.config goes with trust mode consensus'],
    [
      ['--beacon.upstream', 'http://b', '--network', 'mainnet', '--beacon.config', 'c.yaml'],
      "--beacon.config with --network mainnet: a known network's config is edgetrace's own",
    ],
  ])('refuses %j, naming the flags', (more, message) => {
    expect(() => parseCliArgs(args(...more))).toThrow(CliError)
    expect(() => parseCliArgs(args(...more))).toThrow(message)
  })

  it('--help has a trust section: the three modes, what each proves, the flags', () => {
    const trust = USAGE.slice(USAGE.indexOf('\nTrust:'))
    for (const text of [
      '--trust MODE',
      'consensus',
      'checkpoint',
      'upstream',
      'Proves canonicity',
      'not canonicity',
      '--beacon.upstream URL',
      '--checkpoint ROOT|HASH',
      '--checkpoint.force',
      '--network NAME',
      '--beacon.config FILE',
      '--datadir DIR',
      'trusted on first use',
    ])
      expect(trust).toContain(text)
  })
})

describe('the banner', () => {
  const cliEnv = (dir: string) => ({ ...process.env, XDG_DATA_HOME: dir })

  it('says a checkpoint trusted on first use on the first start, and since when it is pinned on the next', async () => {
    const dir = await datadir()
    const argv = [...cliArgs(), '--beacon.upstream', served.url]
    const first = await runCli(argv, /open http:\/\/\S+|JSON-RPC at http:\/\/\S+|edgetrace: /, cliEnv(dir))
    first.kill()
    const file = join(dir, 'edgetrace', 'beacon', `${gvr()}.json`)
    expect(first.output).toContain(`from the beacon block root ${hex(beacon.rootAt(24))}:`)
    expect(first.output).toContain(
      `WARNING: trusted on first use — the beacon node's own finalized root, which nothing vouched for; pinned in ${file} for later starts`,
    )
    expect(first.output).toContain(
      `beacon chain: genesis validators root ${gvr()}, config from the beacon node's /eth/v1/config/spec`,
    )
    const pinnedAt = JSON.parse(await readFile(file, 'utf8')).pinnedAt
    const second = await runCli(argv, /open http:\/\/\S+|JSON-RPC at http:\/\/\S+|edgetrace: /, cliEnv(dir))
    second.kill()
    expect(second.output).toContain(
      `pinned since ${pinnedAt} in ${file} (trusted on first use: the beacon node's own finalized root, nothing vouched for it)`,
    )
  }, 90_000)

  it('names upstream mode; a contradiction stops the CLI, naming the flags', async () => {
    const argv = cliArgs()
    const open = await runCli(argv, /listening/)
    open.kill()
    expect(open.output).toContain(
      "trust:      upstream — blocks asked by number or tag are the upstream's word (no --beacon.upstream or --checkpoint given)",
    )
    expect(open.output).not.toContain('\x1b[')
    const refused = await runCli([...argv, '--trust', 'upstream', '--checkpoint', real[10]!.hash], /never/)
    expect(refused.code).toBe(1)
    expect(refused.output).toContain('edgetrace: --trust upstream with --checkpoint')
    const missing = join(tmpdir(), `no-such-config-${process.pid}.yaml`)
    const noConfig = await runCli([...argv, '--beacon.upstream', served.url, '--beacon.config', missing], /never/)
    expect(noConfig.code).toBe(1)
    expect(noConfig.output).toContain(`edgetrace: --beacon.config ${missing}: ENOENT`)
  }, 90_000)

  it('says upstream mode in red on a terminal', async () => {
    // script(1) gives the CLI a pseudo-terminal for its stdout.
    const command = [process.execPath, ...CLI_ARGS, ...cliArgs()]
    const child = spawn('script', ['-qec', command.join(' '), '/dev/null'], { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    try {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 30_000)
        child.stdout.on('data', (d: Buffer) => {
          output += d.toString()
          if (/listening/.test(output)) {
            clearTimeout(timer)
            resolve()
          }
        })
        child.on('exit', () => resolve())
      })
    } finally {
      // Ended, and waited for: its pseudo-terminal closes and takes the CLI with it.
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGTERM')
        await exited
      }
    }
    expect(output).toContain("\x1b[31m  trust:      upstream — blocks asked by number or tag are the upstream's word")
  }, 60_000)
})
