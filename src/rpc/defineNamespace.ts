import { MethodNotFoundRpcError } from '../errors/rpc.js'
import type { Engine } from '../exec/createEngine.js'
import type { RpcNamespace } from './createRpcHandler.js'
import { type MethodDefinition, invokeMethod } from './defineMethod.js'

/**
 * A namespace (`eth`, `debug`, …): its methods. A `<name>_*` method it does not declare does not
 * exist (−32601): nothing is passed through to the upstream unless declared (see forwardUnverified).
 */
export type NamespaceDefinition = {
  readonly name: string
  /** One line for `--help`: what the namespace is for. */
  readonly summary: string
  /**
   * Its methods' prefix where it is not the namespace's name: vendor's methods keep the reference
   * daemon's own names (`erigon_*`), so clients written for it call them unchanged.
   */
  readonly prefix?: string | undefined
  readonly methods: readonly MethodDefinition[]
  /** Called once when the namespace is bound to an engine and enabled (to start what its methods observe). */
  readonly serve?: ((engine: Engine) => void) | undefined
  /** Another prefix its methods answer under too (sidechain's `bor_*`, the reference daemon's names). */
  readonly aliasPrefix?: string | undefined
  /** Served on every listener whatever `--http.api` names (edgetrace's own status). */
  readonly alwaysServed?: boolean | undefined
  /** Whether the engine's chain has what the namespace serves; where not, every method does not exist. */
  readonly availableOn?: ((engine: Engine) => boolean) | undefined
}

/** Declares a namespace; every method's name must start with `<prefix>_` (the name unless told otherwise). */
export function defineNamespace(namespace: NamespaceDefinition): NamespaceDefinition {
  const prefix = methodPrefix(namespace)
  for (const method of namespace.methods) {
    if (!method.name.startsWith(`${prefix}_`)) throw new Error(`${method.name} is not a ${prefix}_ method`)
  }
  return namespace
}

/** What its methods' names start with (before the `_`). */
export const methodPrefix = (namespace: NamespaceDefinition): string => namespace.prefix ?? namespace.name

/**
 * A declared namespace bound to an engine, as the JSON-RPC core dispatches to it: by its methods'
 * prefix (the core finds a namespace by what a method's name starts with) — and by its alias prefix
 * too, the same methods under their other names. On a chain it is not available on, it has no methods.
 * `jsTracers: false`: its methods refuse tracer code (a listener beyond loopback, see runJsTracerRequest).
 * `served`: the prefixes `--http.api` names; a method `servedWith` another namespace answers −32601
 * naming the flag unless that one is among them (absent: no such gating). `rangeWorker`: the daemon
 * is a range worker of another, and its methods `forRangeWorkers` are bound too (else they are not).
 */
export function bindNamespace(
  namespace: NamespaceDefinition,
  engine: Engine,
  enabled = true,
  {
    jsTracers = true,
    served,
    rangeWorker = false,
  }: { jsTracers?: boolean; served?: readonly string[] | undefined; rangeWorker?: boolean } = {},
): RpcNamespace[] {
  const available = namespace.availableOn?.(engine) ?? true
  if (enabled && available) namespace.serve?.(engine)
  const prefix = methodPrefix(namespace)
  const bound = (as: string): RpcNamespace => {
    const methods = Object.fromEntries(
      (available ? namespace.methods : [])
        .filter((method) => rangeWorker || method.forRangeWorkers !== true)
        .map((method) => [
          `${as}${method.name.slice(prefix.length)}`,
          (params: unknown, context: Parameters<typeof invokeMethod>[3]) => {
            const gate = method.servedWith
            if (gate !== undefined && served !== undefined && !served.includes(gate)) {
              const name = `${as}${method.name.slice(prefix.length)}`
              throw new MethodNotFoundRpcError(name, `served with the ${gate} namespace: add ${gate} to --http.api`)
            }
            return invokeMethod(method, engine, params, context, jsTracers)
          },
        ]),
    )
    return { name: as, methods }
  }
  return namespace.aliasPrefix ? [bound(prefix), bound(namespace.aliasPrefix)] : [bound(prefix)]
}
