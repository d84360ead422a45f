import { builtinModules } from 'node:module'
import { isAbsolute, relative } from 'node:path'
import type { Plugin } from 'vite'

/** npm packages that only run on Node (their browser builds throw), refused like the built-ins. */
const NODE_ONLY_PACKAGES: readonly string[] = ['ws']

/** The package (or built-in) an import specifier names: `fs/promises` → `fs`, `@scope/a/b` → `@scope/a`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!
}

/** Whether `specifier` names a Node built-in (`node:*`, or any name in `module.builtinModules`) or a Node-only package. */
export function isNodeOnlyImport(specifier: string): boolean {
  if (specifier.startsWith('node:')) return true
  const name = packageName(specifier)
  return builtinModules.includes(specifier) || builtinModules.includes(name) || NODE_ONLY_PACKAGES.includes(name)
}

/** A module id as printed: relative to `root` when inside it, else as it is. */
function shortPath(root: string, id: string): string {
  const rel = relative(root, id)
  return id.startsWith('\0') || !isAbsolute(id) || rel === '' || rel.startsWith('..') || isAbsolute(rel) ? id : rel
}

export type NodeOnlyImport = { importer: string; specifier: string }

/**
 * A Vite (rolldown) plugin for browser builds: the build fails when any module in the graph imports
 * a Node built-in or a Node-only package, instead of Vite's default of swapping in an empty module
 * with a warning. Every offending import is collected (kept external meanwhile, so the walk goes on),
 * and the build then fails once with the whole list: each importer (relative to `root`) and what it
 * imports.
 */
export function noNodeBuiltins(options: { root?: string } = {}): Plugin {
  const root = options.root ?? process.cwd()
  const found: NodeOnlyImport[] = []
  return {
    name: 'edgetrace:no-node-builtins',
    enforce: 'pre',
    buildStart() {
      found.length = 0
    },
    resolveId(source, importer) {
      if (!importer || !isNodeOnlyImport(source)) return null
      const where = shortPath(root, importer)
      if (!found.some((f) => f.importer === where && f.specifier === source))
        found.push({ importer: where, specifier: source })
      return { id: source, external: true }
    },
    buildEnd(error) {
      if (error || found.length === 0) return
      const lines = found.map((f) => `  ${f.importer} imports "${f.specifier}"`)
      this.error(
        `Node-only imports in a browser build (Node built-ins, or ${NODE_ONLY_PACKAGES.join(', ')}):\n${lines.join('\n')}`,
      )
    },
  }
}
