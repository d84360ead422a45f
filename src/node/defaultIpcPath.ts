import { lstatSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CliError } from './parseCliArgs.js'

/** The IPC socket's file name in its directory. */
export const IPC_FILE = 'edgetrace.ipc'

export type DefaultIpcPathParameters = {
  /** `$XDG_RUNTIME_DIR`: the user's own runtime directory, when the session has one. */
  runtimeDir?: string | undefined
  /** The shared temporary directory (`os.tmpdir()`, which `$TMPDIR` moves). */
  tempDir?: string
  /** This process's user id; undefined where there are none (Windows). */
  uid?: number | undefined
}

/** Why a directory is not this user's own (0700, owned by `uid`, a real directory), or undefined when it is. */
function notOwnDirectory(dir: string, uid: number): string | undefined {
  const st = lstatSync(dir)
  if (st.isSymbolicLink()) return 'it is a symbolic link'
  if (!st.isDirectory()) return 'it is not a directory'
  if (st.uid !== uid) return `it belongs to user ${st.uid}, not to this user (${uid})`
  if ((st.mode & 0o077) !== 0)
    return `its mode is 0${(st.mode & 0o777).toString(8)}: others can reach into it (0700 needed)`
  return undefined
}

/**
 * Where `--socket.enabled` puts the IPC socket: in a directory only this user can reach, so another
 * local user can neither squat the name nor talk to the socket — `$XDG_RUNTIME_DIR` when it is set
 * and this user's own (0700), else `<temp dir>/edgetrace-<uid>/`, made 0700 if missing and refused
 * if it is there but not this user's own 0700 directory (someone made it first). Two daemons of one
 * user meet at the same path: the second is told the socket is in use by a running process.
 */
export function defaultIpcPath({
  runtimeDir = process.env.XDG_RUNTIME_DIR,
  tempDir = tmpdir(),
  uid = process.getuid?.(),
}: DefaultIpcPathParameters = {}): string {
  // No user ids (Windows): the temp directory is the user's own there.
  if (uid === undefined) return join(tempDir, IPC_FILE)
  if (runtimeDir) {
    try {
      if (notOwnDirectory(runtimeDir, uid) === undefined) return join(runtimeDir, IPC_FILE)
    } catch {
      // Not there: the temp directory then.
    }
  }
  const dir = join(tempDir, `edgetrace-${uid}`)
  try {
    mkdirSync(dir, { mode: 0o700 })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST')
      throw new CliError(`--socket.enabled: cannot make the socket's directory ${dir}: ${(err as Error).message}`)
  }
  const why = notOwnDirectory(dir, uid)
  if (why !== undefined)
    throw new CliError(
      `--socket.enabled: the socket's directory ${dir} is not this user's own: ${why}. Another user may have made it: remove it, or give --socket.url unix:///path/of/your/own.ipc`,
    )
  return join(dir, IPC_FILE)
}
