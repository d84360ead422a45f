import type { EngineOptions } from '../../src/exec/createEngine.js'
import { type Devnet, startDevnet } from '../../src/node/devnet/startDevnet.js'
import { type RunningEdgetrace, startEdgetrace } from '../../src/node/startEdgetrace.js'

/** One devnet per test file (anvil + demo contracts + labelled transactions). */
export async function withDevnet(): Promise<Devnet> {
  return startDevnet()
}

export function txByLabel(devnet: Devnet, label: string) {
  const tx = devnet.transactions.find((t) => t.label === label)
  if (!tx) throw new Error(`no devnet transaction "${label}"`)
  return tx
}

/** A devnet and an edgetrace server in front of it; `stop` ends both. */
export async function withDevnetAndEdgetrace(
  opts: { api?: string[]; engine?: Partial<EngineOptions>; devnet?: Parameters<typeof startDevnet>[0] } = {},
): Promise<{ devnet: Devnet; edge: RunningEdgetrace; stop(): Promise<void> }> {
  const { devnet: devnetOptions, ...edgeOptions } = opts
  const devnet = await startDevnet(devnetOptions)
  const edge = await startEdgetrace({ upstream: devnet.anvil.url, port: 0, hardfork: 'prague', ...edgeOptions })
  return {
    devnet,
    edge,
    stop: async () => {
      await edge.close()
      await devnet.stop()
    },
  }
}
