import { hexToBytes } from '@ethereumjs/util'
import type { SourceRegistry } from '../../src/sources/createSourceRegistry.js'
import type { CallFrame } from '../traceTypes.js'

/** EIP-7702: an account whose code is a delegation runs the delegate's code. */
const DELEGATION = /^0xef0100([0-9a-fA-F]{40})$/
const HEX = /^0x([0-9a-fA-F]{2})+$/

/**
 * Whether `registry` knows a contract the transaction ran: a frame's code (`codeOf`: as the
 * transaction found it; a delegation followed to its delegate; a contract the transaction created,
 * its creation's output) matches a contract's runtime bytecode, or a creation's init code begins
 * with a contract's creation bytecode. The page asks the in-browser daemon (whose sources are the
 * page's) for the source-level trace only then: without, that replay would match nothing.
 */
export function knowsAContract(
  tree: CallFrame,
  registry: SourceRegistry,
  codeOf: (address: string) => string | undefined,
): boolean {
  if (registry.size === 0) return false
  const created = new Map<string, string>()
  const frames: CallFrame[] = []
  const visit = (c: CallFrame) => {
    frames.push(c)
    if (c.type.toUpperCase().startsWith('CREATE') && c.to && c.output && !c.error)
      created.set(c.to.toLowerCase(), c.output)
    for (const child of c.calls ?? []) visit(child)
  }
  visit(tree)
  const codeAt = (address: string) => {
    const code = codeOf(address)
    return code && code.length > 2 ? code : created.get(address)
  }
  const matches = (code: string | undefined) =>
    code !== undefined && HEX.test(code) && registry.match(hexToBytes(code as `0x${string}`)) !== undefined
  for (const f of frames) {
    if (f.type.toUpperCase().startsWith('CREATE')) {
      if (HEX.test(f.input) && registry.matchCreation(hexToBytes(f.input as `0x${string}`))) return true
      continue
    }
    if (!f.to) continue
    const code = codeAt(f.to.toLowerCase())
    const delegate = code && DELEGATION.exec(code)?.[1]
    if (matches(delegate ? codeAt(`0x${delegate.toLowerCase()}`) : code)) return true
  }
  return false
}
