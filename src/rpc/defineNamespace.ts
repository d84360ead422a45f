import type { Engine } from '../exec/createEngine.js'
import type { RpcNamespace } from './createRpcHandler.js'
import { type MethodDefinition, invokeMethod } from './defineMethod.js'

/** A namespace (`eth`, `debug`, …): its methods, and what it does with `<name>_*` methods it does not declare. */
export type NamespaceDefinition = {
  readonly name: string
  readonly methods: readonly MethodDefinition[]
  /** Undeclared `<name>_*` methods: eth and net pass them through to the upstream. Without it: −32601. */
  readonly fallback?: ((engine: Engine, method: string, params: unknown) => Promise<unknown>) | undefined
  /** Called once when the namespace is served with an engine (to start what its methods observe). */
  readonly serve?: ((engine: Engine) => void) | undefined
}

/** Declares a namespace; every method's name must start with `<name>_`. */
export function defineNamespace(namespace: NamespaceDefinition): NamespaceDefinition {
  for (const method of namespace.methods) {
    if (!method.name.startsWith(`${namespace.name}_`))
      throw new Error(`${method.name} is not a ${namespace.name}_ method`)
  }
  return namespace
}

/** A declared namespace bound to an engine, as the JSON-RPC core dispatches to it. */
export function bindNamespace(namespace: NamespaceDefinition, engine: Engine): RpcNamespace {
  namespace.serve?.(engine)
  const methods = Object.fromEntries(
    namespace.methods.map((method) => [
      method.name,
      (params: unknown, context: Parameters<typeof invokeMethod>[3]) => invokeMethod(method, engine, params, context),
    ]),
  )
  const fallback = namespace.fallback
  return fallback
    ? { name: namespace.name, methods, fallback: (method, params) => fallback(engine, method, params) }
    : { name: namespace.name, methods }
}
