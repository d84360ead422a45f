import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { type BeaconConfig, lightClientForkOfDigest, parseBeaconConfig } from '../../src/chain/beacon/beaconConfig.js'
import { createLightClientStore, lightClientExecutionRoot } from '../../src/chain/beacon/createLightClientStore.js'
import {
  type LightClientHeader,
  beaconBlockHeaderRoot,
  decodeLightClientBootstrap,
  decodeLightClientUpdate,
} from '../../src/chain/beacon/lightClientContainers.js'
import { uncompressSnappyBlock } from '../src/snappyBlock.js'

// consensus-spec-tests light_client/sync (minimal preset, Deneb and Electra), vendored in
// test/fixtures/consensus-light-client with their SOURCE and licence: a store bootstrapped at the
// trusted block root must reach exactly the recorded finalized and optimistic headers (slot, beacon
// root, execution root) after every step, accepting every update the runner gives it.

const ROOT = join(import.meta.dirname, '../fixtures/consensus-light-client')

type Checks = {
  finalized_header: { slot: number; beacon_root: string; execution_root: string }
  optimistic_header: { slot: number; beacon_root: string; execution_root: string }
}
type Step =
  | { process_update: { update_fork_digest: string; update: string; current_slot: number; checks: Checks } }
  | { force_update: { current_slot: number; checks: Checks } }

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`
const bytes = (h: string) => Uint8Array.from(Buffer.from(h.replace(/^0x/, ''), 'hex'))

function forkOf(config: BeaconConfig, digest: string) {
  const fork = lightClientForkOfDigest(config, bytes(digest))
  if (!fork) throw new Error(`no light-client fork has digest ${digest}`)
  return fork
}

function seen(config: BeaconConfig, header: LightClientHeader) {
  return {
    slot: header.beacon.slot,
    beacon_root: hex(beaconBlockHeaderRoot(header.beacon)),
    execution_root: hex(lightClientExecutionRoot(config, header)),
  }
}

describe('consensus-spec-tests light_client/sync (minimal preset)', () => {
  for (const fork of readdirSync(ROOT).filter((f) => !f.includes('.'))) {
    for (const name of readdirSync(join(ROOT, fork))) {
      it(`${fork}/${name}`, () => {
        const dir = join(ROOT, fork, name)
        const read = (file: string) => readFileSync(join(dir, file), 'utf8')
        const ssz = (file: string) =>
          uncompressSnappyBlock(new Uint8Array(readFileSync(join(dir, `${file}.ssz_snappy`))))
        // Versions and roots are hex; the YAML core schema would read 0x00000001 as a number.
        const config = parseBeaconConfig(
          parse(read('config.yaml'), { schema: 'failsafe' }) as Record<string, unknown>,
          '0x'.padEnd(66, '0'),
        )
        const meta = parse(read('meta.yaml')) as Record<string, string>
        const chain = { ...config, genesisValidatorsRoot: bytes(meta.genesis_validators_root!) }
        const bootstrap = decodeLightClientBootstrap(
          ssz('bootstrap'),
          forkOf(chain, meta.bootstrap_fork_digest!),
          chain,
        )
        const store = createLightClientStore(chain, bytes(meta.trusted_block_root!), bootstrap)
        const steps = parse(read('steps.yaml')) as Step[]
        steps.forEach((step, i) => {
          let checks: Checks
          if ('process_update' in step) {
            const s = step.process_update
            store.processUpdate(
              decodeLightClientUpdate(ssz(s.update), forkOf(chain, s.update_fork_digest), chain),
              s.current_slot,
            )
            checks = s.checks
          } else {
            store.forceUpdate(step.force_update.current_slot)
            checks = step.force_update.checks
          }
          expect({
            step: i,
            finalized: seen(chain, store.finalized),
            optimistic: seen(chain, store.optimistic),
          }).toEqual({
            step: i,
            finalized: checks.finalized_header,
            optimistic: checks.optimistic_header,
          })
        })
      })
    }
  }
})
