import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { defaultIpcPath } from './defaultIpcPath.js'

// The default IPC socket lives in a directory only this user can reach: $XDG_RUNTIME_DIR when it is
// this user's 0700 directory, else <temp dir>/edgetrace-<uid>/ made 0700 — refused when someone
// else made it first (another owner, a mode others can reach into, a symbolic link).

const uid = process.getuid!()
const dirs: string[] = []
const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), 'edgetrace-ipc-test-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('defaultIpcPath', () => {
  it('makes <temp dir>/edgetrace-<uid>/ owned by this user with mode 0700, and uses it again', () => {
    const tempDir = scratch()
    const path = defaultIpcPath({ runtimeDir: undefined, tempDir })
    expect(path).toBe(join(tempDir, `edgetrace-${uid}`, 'edgetrace.ipc'))
    const st = statSync(join(tempDir, `edgetrace-${uid}`))
    expect(st.uid).toBe(uid)
    expect(st.mode & 0o777).toBe(0o700)
    expect(defaultIpcPath({ runtimeDir: undefined, tempDir })).toBe(path)
  })

  it('refuses a squatted directory with a clear message: a mode others reach into, another owner, a link', () => {
    const tempDir = scratch()
    const dir = join(tempDir, `edgetrace-${uid}`)
    mkdirSync(dir)
    chmodSync(dir, 0o777)
    expect(() => defaultIpcPath({ runtimeDir: undefined, tempDir })).toThrow(
      `--socket.enabled: the socket's directory ${dir} is not this user's own: its mode is 0777: others can reach into it (0700 needed). Another user may have made it: remove it, or give --socket.url unix:///path/of/your/own.ipc`,
    )
    // Another owner (made as root here, handed to "nobody"), even with mode 0700.
    if (uid === 0) {
      chmodSync(dir, 0o700)
      chownSync(dir, 65534, 65534)
      expect(() => defaultIpcPath({ runtimeDir: undefined, tempDir })).toThrow(
        `it belongs to user 65534, not to this user (${uid})`,
      )
    }
    // A link to a directory of ours: the name is someone's, not ours.
    const linked = scratch()
    const ours = join(linked, 'ours')
    mkdirSync(ours, { mode: 0o700 })
    symlinkSync(ours, join(linked, `edgetrace-${uid}`))
    expect(() => defaultIpcPath({ runtimeDir: undefined, tempDir: linked })).toThrow('it is a symbolic link')
  })

  it('uses $XDG_RUNTIME_DIR when it is this user’s own 0700 directory, else the temp directory', () => {
    const runtimeDir = scratch()
    chmodSync(runtimeDir, 0o700)
    const tempDir = scratch()
    expect(defaultIpcPath({ runtimeDir, tempDir })).toBe(join(runtimeDir, 'edgetrace.ipc'))
    chmodSync(runtimeDir, 0o755)
    expect(defaultIpcPath({ runtimeDir, tempDir })).toBe(join(tempDir, `edgetrace-${uid}`, 'edgetrace.ipc'))
    expect(defaultIpcPath({ runtimeDir: join(runtimeDir, 'missing'), tempDir })).toBe(
      join(tempDir, `edgetrace-${uid}`, 'edgetrace.ipc'),
    )
  })
})
