import { hexToBytes } from '@ethereumjs/util'
import { abiSelectors } from '../../src/sources/abiSelectors.js'
import { type SourceLocator, createSourceLocator } from '../../src/sources/createSourceLocator.js'
import type { SourceRegistry } from '../../src/sources/createSourceRegistry.js'
import type { SourceContract } from '../../src/sources/types.js'
import type { CallFrame } from '../traceTypes.js'
import { type FrameEntry, alignFrames } from './alignFrames.js'
import type { FrameSource } from './sourceSteps.js'

const locators = {
  runtime: new WeakMap<SourceContract, SourceLocator>(),
  creation: new WeakMap<SourceContract, SourceLocator>(),
}
const locatorOf = (c: SourceContract, part: 'runtime' | 'creation' = 'runtime') => {
  let l = locators[part].get(c)
  if (!l) locators[part].set(c, (l = createSourceLocator(c, part)))
  return l
}

const short = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`

/** EIP-7702: an account whose code is a delegation runs the delegate's code. */
const DELEGATION = /^0xef0100([0-9a-fA-F]{40})$/

/**
 * What each frame of the step index runs, for the source level: the call it is (alignFrames), its
 * code (`codeOf`: the code of an address as the transaction found it — a prestateTracer's —, else
 * for a contract the transaction created, its creation's output), the contract that code matches by runtime bytecode, and the
 * function its calldata names by that contract's ABI (else `decode`'s name, else the selector).
 * Creations run init code: located by the creation bytecode's source map of the contract whose
 * creation bytecode the init code begins with (the constructor's arguments follow it), when a build
 * output had it; else without a locator.
 */
export function frameSources(opts: {
  tree: CallFrame
  entries: readonly FrameEntry[]
  codeOf: (address: string) => string | undefined
  registry: SourceRegistry
  decode?: (input: string) => string | undefined
  /** Gas per source line of each call (lineGasOf), when the daemon could say. */
  gas?: ReadonlyMap<CallFrame, ReadonlyMap<string, number>>
}): FrameSource[] {
  // Contracts the transaction created: their runtime code is the creation's output (what a later
  // self-destruct took away from the state is still what their calls ran).
  const created = new Map<string, string>()
  const visit = (c: CallFrame) => {
    if (c.type.toUpperCase().startsWith('CREATE') && c.to && c.output && !c.error)
      created.set(c.to.toLowerCase(), c.output)
    for (const child of c.calls ?? []) visit(child)
  }
  visit(opts.tree)
  const codeAt = (address: string) => {
    const code = opts.codeOf(address)
    return code && code.length > 2 ? code : (created.get(address) ?? code)
  }
  const runCode = (address: string | undefined): string | undefined => {
    if (!address) return undefined
    const code = codeAt(address.toLowerCase())
    const delegate = code && DELEGATION.exec(code)?.[1]
    return delegate ? codeAt(`0x${delegate.toLowerCase()}`) : code
  }
  const creation = (c: CallFrame) => c.type.toUpperCase().startsWith('CREATE')
  const hasCode = (c: CallFrame) => creation(c) || (runCode(c.to)?.length ?? 0) > 2
  const calls = alignFrames(opts.tree, opts.entries, hasCode)
  return opts.entries.map(([, , context], i): FrameSource => {
    const call = calls[i]
    if (!call) return { label: short(context) }
    const text = (contract: SourceContract) => (path: string) =>
      [...contract.sources.values()].find((f) => f.path === path)?.content
    if (creation(call)) {
      const init = /^0x([0-9a-fA-F]{2})+$/.test(call.input)
        ? opts.registry.matchCreation(hexToBytes(call.input as `0x${string}`))
        : undefined
      if (init)
        return {
          label: `new ${init.name}`,
          locator: locatorOf(init, 'creation'),
          text: text(init),
          gas: opts.gas?.get(call),
        }
      const code = runCode(call.to)
      const deployed = code && code.length > 2 ? opts.registry.match(hexToBytes(code as `0x${string}`)) : undefined
      return { label: `new ${deployed?.name ?? short(call.to ?? context)}` }
    }
    const code = runCode(call.to)
    const contract = code && code.length > 2 ? opts.registry.match(hexToBytes(code as `0x${string}`)) : undefined
    const who = contract?.name ?? short(call.to ?? context)
    const selector = call.input.slice(0, 10).toLowerCase()
    const fn =
      call.input.length < 10
        ? call.input === '0x'
          ? 'receive'
          : 'fallback'
        : ((contract && abiSelectors(contract.abi).get(selector)?.name) ?? opts.decode?.(call.input) ?? selector)
    if (!contract) return { label: `${who}.${fn}` }
    return { label: `${who}.${fn}`, locator: locatorOf(contract), text: text(contract), gas: opts.gas?.get(call) }
  })
}
