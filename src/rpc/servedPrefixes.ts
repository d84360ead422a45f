import { type NamespaceDefinition, methodPrefix } from './defineNamespace.js'

/**
 * Other names `--http.api` accepts for a namespace: the reference daemon's own name of vendor is
 * `erigon` (its `--http.api` default is `eth,erigon`), so a command line written for it works here.
 */
export const NAMESPACE_ALIASES: Readonly<Record<string, string>> = { erigon: 'vendor', bor: 'sidechain' }

/**
 * The method prefixes the JSON-RPC core serves for an `--http.api` list: each namespace named (or
 * aliased) gives its methods' prefix — `vendor` and `erigon` both serve `erigon_*` — and its alias
 * prefix (`sidechain` and `bor` both serve `sidechain_*` and `bor_*`). A name no
 * namespace has is kept as it is (its methods answer "does not exist", as before).
 */
export function servedPrefixes(api: readonly string[], namespaces: readonly NamespaceDefinition[]): string[] {
  const byName = new Map(namespaces.map((ns) => [ns.name, ns]))
  const out = api.flatMap((name) => {
    const namespace = byName.get(NAMESPACE_ALIASES[name] ?? name)
    if (!namespace) return [name]
    return namespace.aliasPrefix ? [methodPrefix(namespace), namespace.aliasPrefix] : [methodPrefix(namespace)]
  })
  return [...new Set(out)]
}
