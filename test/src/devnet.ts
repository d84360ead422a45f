import { type Devnet, startDevnet } from '../../src/node/devnet/startDevnet.js'

/** One devnet per test file (anvil + demo contracts + labelled transactions). */
export async function withDevnet(): Promise<Devnet> {
  return startDevnet()
}

export function txByLabel(devnet: Devnet, label: string) {
  const tx = devnet.transactions.find((t) => t.label === label)
  if (!tx) throw new Error(`no devnet transaction "${label}"`)
  return tx
}
