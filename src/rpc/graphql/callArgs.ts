import { hexQuantity, toQuantity } from './rpcCaller.js'

/** GraphQL's CallData as eth_call's transaction object (Long and BigInt fields as quantities). */
export function callArgs(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of ['from', 'to', 'data'] as const) if (data[key] != null) out[key] = data[key]
  for (const key of ['gas', 'gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas', 'value'] as const)
    if (data[key] != null) out[key] = hexQuantity(toQuantity(data[key], key))
  return out
}
