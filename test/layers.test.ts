import { readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, posix, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// The dependency rule of src/ (issue 13): layers only point down, and no file imports itself back
// through a circle. Every import counts — `import type`, `export … from` and `import()` too — since
// a type that lives in a higher layer drags that layer into the lower one's vocabulary.
//
// From the top down (a file may import its own layer and any layer below it):
//   node, browser        the two hosts; neither imports the other (browser code must never reach
//                        Node-only code; node has no use for the browser's workers)
//   src/createEdgetrace.ts  the composition root both hosts start from
//   rpc                  wire parsing, namespaces, the JSON-RPC core
//   exec                 loading, replay, calls
//   evm                  the @ethereumjs/evm adapter
//   tracing              hooks, recorders, tracers, renderers
//   state                state sources, caches, persistence
//   chain                headers, chain rules
//   upstream             the client of the upstream node
// and below all of them the shared leaves, ordered among themselves (types ← utils ← errors):
//   errors               error classes and their mapping to JSON-RPC; may import utils and types
//   utils                small helpers (hex, deadlines, the LRU cache); may import types
//   types                shared types only (hex, block selectors, JSON-RPC envelopes, progress,
//                        chunk writers, overrides); imports nothing of ours
// A file directly under src/ other than createEdgetrace.ts, or in any other top folder, is in no
// layer and fails the check until it is given one here.
//
// Test files (*.test.ts) are left out of the graph: a test beside its code may start the real
// components it needs (anvil from src/node/devnet, the test helpers under test/), and nothing
// imports a test, so it can close no circle.

type Layer = { name: string; rank: number }

const HOSTS = 100
const LAYERS: Record<string, number> = {
  node: HOSTS,
  browser: HOSTS,
  'createEdgetrace.ts': 90,
  rpc: 80,
  exec: 70,
  evm: 60,
  // The WebAssembly interpreter's TypeScript host: run by the EVM adapter, renders through tracing's types.
  wasm: 55,
  tracing: 50,
  // Build outputs (solc, Foundry, Hardhat), their matching to runtime code and source maps: pure data, read by tracing.
  sources: 45,
  state: 40,
  chain: 30,
  upstream: 20,
  errors: 3,
  utils: 2,
  types: 1,
}

/** The layer of a path relative to src/ (posix separators), by its top folder. */
function layerOf(path: string): Layer | undefined {
  const top = path.split('/')[0]!
  const rank = LAYERS[top]
  return rank === undefined ? undefined : { name: top === 'createEdgetrace.ts' ? 'createEdgetrace' : top, rank }
}

type Violation = string

/** Whether `from` may import `to`: down or sideways within a layer; never between the two hosts. */
function allowed(from: Layer, to: Layer): boolean {
  if (from.name === to.name) return true
  if (from.rank === HOSTS && to.rank === HOSTS) return false
  return to.rank < from.rank
}

/**
 * The relative specifiers a file imports or re-exports, static or dynamic, type-only or not.
 * TypeScript's own pre-processor (already a dev dependency) reads them, so no comment, string or
 * multi-line import can fool it the way a regular expression could be fooled.
 */
function importsOf(text: string): string[] {
  const info = ts.preProcessFile(text, true, true)
  return info.importedFiles.map((f) => f.fileName).filter((name) => name.startsWith('./') || name.startsWith('../'))
}

/** The file (relative to src/) a specifier names, or undefined when none of ours matches. */
function resolveImport(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  const target = posix.normalize(posix.join(posix.dirname(from), specifier))
  const candidates = target.endsWith('.js')
    ? [`${target.slice(0, -3)}.ts`, target]
    : [target, `${target}.ts`, `${target}/index.ts`]
  return candidates.find((c) => files.has(c))
}

/** Strongly connected components with more than one file, or a file importing itself (Tarjan). */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  // Iterative, so a long import chain cannot overflow the stack.
  for (const root of graph.keys()) {
    if (index.has(root)) continue
    const work: { node: string; edge: number }[] = [{ node: root, edge: 0 }]
    index.set(root, next)
    low.set(root, next++)
    stack.push(root)
    onStack.add(root)
    while (work.length > 0) {
      const top = work[work.length - 1]!
      const edges = graph.get(top.node) ?? []
      if (top.edge < edges.length) {
        const to = edges[top.edge++]!
        if (!index.has(to)) {
          index.set(to, next)
          low.set(to, next++)
          stack.push(to)
          onStack.add(to)
          work.push({ node: to, edge: 0 })
        } else if (onStack.has(to)) {
          low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!))
        }
        continue
      }
      work.pop()
      if (work.length > 0) {
        const parent = work[work.length - 1]!.node
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!))
      }
      if (low.get(top.node) === index.get(top.node)) {
        const component: string[] = []
        let member: string
        do {
          member = stack.pop()!
          onStack.delete(member)
          component.push(member)
        } while (member !== top.node)
        if (component.length > 1 || edges.includes(top.node)) found.push(component.sort())
      }
    }
  }
  return found
}

/**
 * Every import against the layer order and every circle among `sources` (path relative to src/,
 * posix separators → text). Each violation names the file, the import and the rule it breaks.
 */
function checkLayers(sources: ReadonlyMap<string, string>): Violation[] {
  const files = new Set(sources.keys())
  const violations: Violation[] = []
  const graph = new Map<string, string[]>()
  for (const [file, text] of sources) {
    const from = layerOf(file)
    if (from === undefined)
      violations.push(`src/${file}: not in any layer (its top folder is not one of ${Object.keys(LAYERS).join(', ')})`)
    const edges: string[] = []
    for (const specifier of importsOf(text)) {
      const target = resolveImport(file, specifier, files)
      if (target === undefined) {
        // Data (the devnet's JSON artifacts) is no layer's business; any other import must be a
        // source under src/, or the check would silently lose an edge.
        if (!specifier.endsWith('.json'))
          violations.push(`src/${file} imports '${specifier}': no source file under src/ has that path`)
        continue
      }
      edges.push(target)
      const to = layerOf(target)
      if (from === undefined || to === undefined || allowed(from, to)) continue
      const rule =
        from.rank === HOSTS && to.rank === HOSTS
          ? `${from.name} and ${to.name} are separate hosts: neither imports the other`
          : `${from.name} must not import ${to.name}: layers only point down (${from.name} is below ${to.name})`
      violations.push(`src/${file} imports '${specifier}' (src/${target}): ${rule}`)
    }
    graph.set(file, edges)
  }
  for (const component of cycles(graph)) {
    const members = new Set(component)
    // Name the edges inside the circle, so the message says which imports to cut.
    const edges = component.flatMap((f) =>
      (graph.get(f) ?? []).filter((t) => members.has(t)).map((t) => `src/${f} → src/${t}`),
    )
    violations.push(`import cycle among ${component.length} file(s): ${edges.join(', ')}`)
  }
  return violations
}

/**
 * Every .ts source under src/ but the tests, by path relative to src/ with posix separators. The
 * AssemblyScript under src/wasm/assembly is left out: asc compiles it to one .wasm, nothing imports it.
 */
function readSources(srcDir: string): Map<string, string> {
  const sources = new Map<string, string>()
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name)
      if (path === join(srcDir, 'wasm', 'assembly')) continue
      if (statSync(path).isDirectory()) walk(path)
      else if (name.endsWith('.ts') && !name.endsWith('.test.ts'))
        sources.set(relative(srcDir, path).split(sep).join('/'), readFileSync(path, 'utf8'))
    }
  }
  walk(srcDir)
  return sources
}

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src')

describe('layers', () => {
  it('src/ imports only down the layers and has no import cycle', () => {
    const sources = readSources(SRC)
    expect(sources.size).toBeGreaterThan(100)
    const violations = checkLayers(sources)
    expect(violations, `\n${violations.join('\n')}\n`).toEqual([])
  })

  // The check itself: each rule fails on a tree that breaks it.
  it('names an upward import, type-only, re-exported or dynamic, with its file and rule', () => {
    const sources = new Map([
      ['rpc/types.ts', `export type JsonRpcId = string`],
      ['errors/toRpcError.ts', `import type { JsonRpcId } from '../rpc/types.js'\nexport const x: JsonRpcId = ''`],
      ['chain/store.ts', `export type { JsonRpcId } from '../rpc/types.js'`],
      ['evm/lazy.ts', `export const load = () => import('../exec/run.js')`],
      ['exec/run.ts', `import { x } from '../errors/toRpcError.js'\nexport const y = x`],
      ['browser/index.ts', `import '../node/cli.js'`],
      ['node/cli.ts', `import '../createEdgetrace.js'`],
      ['createEdgetrace.ts', `import './rpc/types.js'`],
    ])
    expect(checkLayers(sources)).toEqual([
      `src/errors/toRpcError.ts imports '../rpc/types.js' (src/rpc/types.ts): errors must not import rpc: layers only point down (errors is below rpc)`,
      `src/chain/store.ts imports '../rpc/types.js' (src/rpc/types.ts): chain must not import rpc: layers only point down (chain is below rpc)`,
      `src/evm/lazy.ts imports '../exec/run.js' (src/exec/run.ts): evm must not import exec: layers only point down (evm is below exec)`,
      `src/browser/index.ts imports '../node/cli.js' (src/node/cli.ts): browser and node are separate hosts: neither imports the other`,
    ])
  })

  it('orders the leaves types ← utils ← errors', () => {
    const sources = new Map([
      ['types/hex.ts', `import '../utils/hex.js'`],
      ['utils/hex.ts', `import '../types/hex.js'\nimport '../errors/base.js'`],
      ['errors/base.ts', `import '../utils/hex.js'\nimport '../types/hex.js'`],
    ])
    const violations = checkLayers(sources)
    expect(violations.slice(0, 2)).toEqual([
      `src/types/hex.ts imports '../utils/hex.js' (src/utils/hex.ts): types must not import utils: layers only point down (types is below utils)`,
      `src/utils/hex.ts imports '../errors/base.js' (src/errors/base.ts): utils must not import errors: layers only point down (utils is below errors)`,
    ])
    expect(violations[2]).toMatch(/^import cycle among 3 file\(s\): /)
  })

  it('names every circle within a layer, and a file importing itself', () => {
    const sources = new Map([
      ['tracing/a.ts', `import { b } from './b.js'\nexport const a = b`],
      ['tracing/b.ts', `import type { C } from './sub/c.js'\nexport const b = 1 as unknown as C`],
      ['tracing/sub/c.ts', `import { a } from '../a.js'\nexport type C = typeof a`],
      ['tracing/d.ts', `import { a } from './a.js'\nexport const d = a`],
      ['state/self.ts', `export * from './self.js'`],
    ])
    expect(checkLayers(sources)).toEqual([
      `import cycle among 3 file(s): src/tracing/a.ts → src/tracing/b.ts, src/tracing/b.ts → src/tracing/sub/c.ts, src/tracing/sub/c.ts → src/tracing/a.ts`,
      `import cycle among 1 file(s): src/state/self.ts → src/state/self.ts`,
    ])
  })

  it('names a file outside every layer, and an import it cannot follow', () => {
    const sources = new Map([
      ['misc/x.ts', ''],
      [
        'node/cli.ts',
        `import data from './devnet/artifacts.json'\nimport '../../worker/edgetrace.worker.js'\nimport './missing.js'`,
      ],
    ])
    expect(checkLayers(sources)).toEqual([
      `src/misc/x.ts: not in any layer (its top folder is not one of ${Object.keys(LAYERS).join(', ')})`,
      `src/node/cli.ts imports '../../worker/edgetrace.worker.js': no source file under src/ has that path`,
      `src/node/cli.ts imports './missing.js': no source file under src/ has that path`,
    ])
  })
})
