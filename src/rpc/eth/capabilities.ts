import type { Hex } from '../../types/hex.js'
import { quantity } from '../../utils/hex.js'
import { defineMethod } from '../defineMethod.js'

/** One resource of eth_capabilities (execution-apis EthCapabilitiesEffectiveResource), fields in the spec's order. */
export type CapabilityResource = {
  disabled: boolean
  oldestBlock?: Hex
  deleteStrategy?: { type: 'window'; retentionBlocks: Hex }
}

const RESOURCES = ['state', 'tx', 'logs', 'receipts', 'blocks', 'stateproofs'] as const
type Resources = Record<(typeof RESOURCES)[number], CapabilityResource>

const isQuantity = (v: unknown): v is Hex => typeof v === 'string' && /^0x(0|[1-9a-f][0-9a-f]*)$/i.test(v)

/** A resource as the upstream described it, rebuilt from its known fields; undefined when malformed. */
function parseResource(raw: unknown): CapabilityResource | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined
  const { disabled, oldestBlock, deleteStrategy } = raw as Record<string, unknown>
  if (typeof disabled !== 'boolean') return undefined
  if (disabled) return { disabled }
  const out: CapabilityResource = { disabled }
  if (oldestBlock !== undefined) {
    if (!isQuantity(oldestBlock)) return undefined
    out.oldestBlock = quantity(BigInt(oldestBlock))
  }
  if (deleteStrategy !== undefined) {
    const { type, retentionBlocks } = (deleteStrategy ?? {}) as Record<string, unknown>
    if (type !== 'window' || !isQuantity(retentionBlocks)) return undefined
    out.deleteStrategy = { type, retentionBlocks: quantity(BigInt(retentionBlocks)) }
  }
  return out
}

function parseResources(raw: unknown): Resources | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined
  const out: Partial<Resources> = {}
  for (const name of RESOURCES) {
    const resource = parseResource((raw as Record<string, unknown>)[name])
    if (!resource) return undefined
    out[name] = resource
  }
  return out as Resources
}

/**
 * eth_capabilities() (execution-apis; geth's internal/ethapi/capabilities.go): the head and, per
 * resource, the oldest block that can be served and how older data goes away — for routers choosing
 * a node. `head` is edgetrace's verified head. Everything served here is computed from what the
 * upstream gives, so each resource is what edgetrace reads it from at the upstream, as the
 * upstream's own eth_capabilities describes it: state (eth_call, eth_getBalance …) from proofs, so
 * `state` is the upstream's `stateproofs`; logs from verified receipts (the upstream's log index is
 * never asked), so `logs` is the upstream's `receipts` (disabled with its `blocks`); `tx`, `receipts`,
 * `blocks`, `stateproofs` are the upstream's. With `--unverified` reads are the upstream's own, and
 * so is each resource. An upstream without the method (or with a malformed answer): each resource
 * `{disabled: false}`, its oldest block not known (the spec's fields are optional).
 */
export const capabilities = defineMethod({
  name: 'eth_capabilities',
  params: [],
  async run(engine) {
    const [head, upstream] = await Promise.all([
      engine.headers.resolve({ kind: 'tag', tag: 'latest' }),
      engine.upstream.request<unknown>('eth_capabilities', []).then(parseResources, () => undefined),
    ])
    let resources: Resources
    if (!upstream) {
      const unknown = (): CapabilityResource => ({ disabled: false })
      resources = {
        state: unknown(),
        tx: unknown(),
        logs: unknown(),
        receipts: unknown(),
        blocks: unknown(),
        stateproofs: unknown(),
      }
    } else if (engine.options.unverified) resources = upstream
    else
      resources = {
        state: upstream.stateproofs,
        tx: upstream.tx,
        logs: upstream.blocks.disabled ? { disabled: true } : upstream.receipts,
        receipts: upstream.receipts,
        blocks: upstream.blocks,
        stateproofs: upstream.stateproofs,
      }
    return { head: { number: quantity(head.number), hash: head.hash }, ...resources }
  },
})
