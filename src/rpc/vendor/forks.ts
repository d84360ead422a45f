import { chainForks } from '../../chain/forkId.js'
import { defineMethod } from '../defineMethod.js'

/**
 * erigon_forks(): the verified genesis hash and the chain's fork activations as the reference daemon
 * lists them (forkid.GatherForks: sorted, deduplicated block numbers and timestamps, genesis ones left
 * out), Go integers written as bare JSON numbers.
 */
export const forks = defineMethod({
  name: 'erigon_forks',
  params: [],
  async run(engine) {
    const [genesis, head] = await Promise.all([
      engine.headers.resolve({ kind: 'number', number: 0n }),
      engine.headers.resolve({ kind: 'tag', tag: 'latest' }),
    ])
    const common = engine.rules.commonFor(head.number, head.header.timestamp)
    const schedule = chainForks(common, genesis.header.timestamp, engine.rules.fixedHardfork)
    return {
      genesis: genesis.hash,
      heightForks: schedule.byBlock.map(Number),
      timeForks: schedule.byTime.map(Number),
    }
  },
})
