import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import { runCli } from './src/runCli.js'

// --socket.enabled without --socket.url: the IPC socket is made in this user's own 0700 directory
// (here under a fresh TMPDIR, no XDG_RUNTIME_DIR), a second daemon is told the socket is in use,
// and a directory someone else made first is refused before anything starts.

let anvil: AnvilInstance
let tempDir: string
const uid = process.getuid!()

beforeAll(async () => {
  anvil = await startAnvil()
  tempDir = mkdtempSync(join(tmpdir(), 'edgetrace-ipc-cli-'))
}, 60_000)

afterAll(async () => {
  await anvil?.stop()
  rmSync(tempDir, { recursive: true, force: true })
})

const envWith = (dir: string) => ({ ...process.env, TMPDIR: dir, XDG_RUNTIME_DIR: '' })
const args = () => ['--upstream', anvil.url, '--hardfork', 'prague', '--http.port', '0', '--socket.enabled']

describe('the default IPC socket', () => {
  it('is made in <temp dir>/edgetrace-<uid>/ (0700, this user’s); a second daemon is told it is in use', async () => {
    const dir = join(tempDir, `edgetrace-${uid}`)
    const first = await runCli(args(), /\n(open|JSON-RPC at) http/, envWith(tempDir))
    try {
      expect(first.output).toContain(`socket:     unix://${dir}/edgetrace.ipc`)
      const st = statSync(dir)
      expect(st.uid).toBe(uid)
      expect(st.mode & 0o777).toBe(0o700)
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(join(dir, 'edgetrace.ipc'))
        let text = ''
        socket.on('data', (d) => {
          text += d
          if (text.includes('\n')) {
            socket.destroy()
            resolve(text)
          }
        })
        socket.on('error', reject)
        socket.on('connect', () => socket.write('{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}'))
      })
      expect(JSON.parse(answer)).toMatchObject({ result: '0x7a69' })
      const second = await runCli(args(), /never/, envWith(tempDir))
      expect(second.code).toBe(1)
      expect(second.output).toContain(
        `edgetrace: --socket.url: ${dir}/edgetrace.ipc is in use by a running process: stop it or choose another path`,
      )
    } finally {
      first.kill()
    }
  }, 60_000)

  it('refuses a directory someone else made first, before anything starts', async () => {
    const squatted = mkdtempSync(join(tmpdir(), 'edgetrace-ipc-squat-'))
    try {
      const dir = join(squatted, `edgetrace-${uid}`)
      mkdirSync(dir)
      chmodSync(dir, 0o755)
      const run = await runCli(args(), /never/, envWith(squatted))
      expect(run.code).toBe(1)
      expect(run.output).toContain(
        `edgetrace: --socket.enabled: the socket's directory ${dir} is not this user's own: its mode is 0755: others can reach into it (0700 needed)`,
      )
      expect(run.output).not.toContain('listening:')
    } finally {
      rmSync(squatted, { recursive: true, force: true })
    }
  }, 60_000)
})
