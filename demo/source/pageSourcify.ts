import { hexToBytes } from '@ethereumjs/util'
import { createSourcifyLookup } from '../../src/exec/createSourcifyLookup.js'
import type { SourceRegistry } from '../../src/sources/createSourceRegistry.js'
import type { SourceContract, SourceLookup } from '../../src/sources/types.js'
import type { LruCache } from '../../src/utils/createLruCache.js'
import type { CallFrame } from '../traceTypes.js'
import { createSourcifyCache } from './createSourcifyCache.js'

/** EIP-7702: an account whose code is a delegation runs the delegate's code. */
const DELEGATION = /^0xef0100([0-9a-fA-F]{40})$/
const HEX = /^0x([0-9a-fA-F]{2})+$/

const lookups = new Map<string, SourceLookup>()
/** The page's Sourcify answers, in memory and in IndexedDB (createSourcifyCache): one for every server and chain. */
let answers: Promise<LruCache> | undefined
/**
 * One lookup (its memory of failures, its requests in flight) per Sourcify server and chain, for the
 * page's life; the answers it matched are kept across reloads (keyed by chain id and code hash).
 */
async function lookupOf(url: string, chainId: bigint): Promise<SourceLookup> {
  answers ??= createSourcifyCache()
  const cache = await answers
  const key = `${url} ${chainId}`
  let lookup = lookups.get(key)
  if (!lookup) lookups.set(key, (lookup = createSourcifyLookup({ url, chainId, cache })))
  return lookup
}

/**
 * The contracts a Sourcify server (APIv2: the one the serving server asks, said in its explorer.json)
 * has for the code the transaction ran that `registry` does not know: each called account's code as
 * the transaction found it (`codeOf`; a delegation followed to its delegate), and each contract it
 * created (its creation's output). Asked by the page itself, for the stepper's source pane, which
 * locates each step with the contract (the server's source tracer keeps what it found). Each answer
 * is matched to that code by runtime bytecode (createSourcifyLookup), never trusted by address;
 * what is not verified, or does not match, is left out. Answers that matched are kept in the page's
 * IndexedDB, so a reload asks the server only for code it has not answered before.
 */
export async function sourcifyContracts(opts: {
  url: string
  chainId: bigint
  tree: CallFrame
  codeOf: (address: string) => string | undefined
  registry: SourceRegistry
}): Promise<SourceContract[]> {
  const wanted = new Map<string, Uint8Array>()
  const add = (address: string, code: string | undefined) => {
    const delegate = code && DELEGATION.exec(code)?.[1]
    if (delegate) return add(`0x${delegate.toLowerCase()}`, opts.codeOf(`0x${delegate.toLowerCase()}`))
    if (!code || !HEX.test(code) || wanted.has(address)) return
    const bytes = hexToBytes(code as `0x${string}`)
    if (!opts.registry.match(bytes)) wanted.set(address, bytes)
  }
  const visit = (c: CallFrame) => {
    const to = c.to?.toLowerCase()
    if (to) {
      const creation = c.type.toUpperCase().startsWith('CREATE')
      if (!creation) add(to, opts.codeOf(to))
      else if (c.output && !c.error) add(to, c.output)
    }
    for (const child of c.calls ?? []) visit(child)
  }
  visit(opts.tree)
  const lookup = await lookupOf(opts.url, opts.chainId)
  const found = await Promise.all([...wanted].map(([address, code]) => lookup(address, code)))
  return found.flatMap((r) => ('contract' in r ? [r.contract] : []))
}
