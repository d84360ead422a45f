import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { BaseError } from '../errors/base.js'
import type { BeaconPin, BeaconPinStore } from '../chain/beacon/connectPinnedLightClient.js'

/** The Node server's pins are files: `fileOf` names a chain's. */
export type BeaconPinFiles = BeaconPinStore & { fileOf(genesisValidatorsRoot: string): string }

/** `--datadir`'s default: `$XDG_DATA_HOME/edgetrace`, else `~/.local/share/edgetrace`. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.XDG_DATA_HOME ? join(env.XDG_DATA_HOME, 'edgetrace') : join(homedir(), '.local', 'share', 'edgetrace')
}

const ROOT = /^0x[0-9a-f]{64}$/

/**
 * Pins in a data directory (`<dataDir>/beacon/`, made owner-only, 0700): one JSON file per beacon chain, named by its
 * genesis validators root, owner-only (0600), written whole to a temporary name and renamed over
 * the old one, so a crash leaves the old pin or the new one, never half of one. A file that does
 * not read as a pin is an error naming it (never silently replaced: it holds what was trusted).
 */
export function createBeaconPinStore(dataDir: string): BeaconPinFiles {
  const dir = join(dataDir, 'beacon')
  const fileOf = (root: string) => join(dir, `${root.toLowerCase()}.json`)
  return {
    fileOf,
    async get(root) {
      let text: string
      try {
        text = await readFile(fileOf(root), 'utf8')
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
        throw new Error(
          `the pinned checkpoint ${fileOf(root)} cannot be read: ${(err as Error).message} (give another --datadir DIR)`,
        )
      }
      let pin: BeaconPin
      try {
        pin = JSON.parse(text) as BeaconPin
      } catch {
        pin = {} as BeaconPin
      }
      if (
        !ROOT.test(String(pin.checkpoint)) ||
        (pin.source !== 'first use' && pin.source !== 'flag') ||
        Number.isNaN(Date.parse(String(pin.pinnedAt))) ||
        (pin.lastFinalized !== undefined &&
          (!ROOT.test(String(pin.lastFinalized.root)) || !Number.isSafeInteger(pin.lastFinalized.slot)))
      )
        throw new Error(
          `the pinned checkpoint ${fileOf(root)} is not a pin ({checkpoint, pinnedAt, source, lastFinalized}): remove it to trust a checkpoint anew`,
        )
      return pin
    },
    async set(root, pin) {
      const file = fileOf(root)
      try {
        // Directories it makes are owner-only (one given that exists is left as it is).
        await mkdir(dir, { recursive: true, mode: 0o700 })
        const temp = `${file}.${process.pid}.tmp`
        await writeFile(temp, `${JSON.stringify(pin, null, 2)}\n`, { mode: 0o600 })
        await rename(temp, file)
      } catch (err) {
        throw new BaseError(`cannot keep the pinned checkpoint in ${file}: ${(err as Error).message}`, {
          metaMessages: ['give another --datadir DIR'],
        })
      }
    },
  }
}
