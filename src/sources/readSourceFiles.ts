import { buildInfoSources, readFoundryArtifact } from './readFoundryArtifact.js'
import { readStandardJson } from './readStandardJson.js'
import type { SourceContract, SourceFile } from './types.js'

// biome-ignore lint/suspicious/noExplicitAny: build outputs are untyped JSON, read field by field and checked where used
type Json = Record<string, any>

/** One file of a build output as a page or a browser config has it: its name (a path, for a dropped folder) and its text. */
export type NamedSourceFile = {
  /** Its path or name (`out/Token.sol/Token.json`, `build-info/4f1c….json`, `Token.sol`). */
  name: string
  /** Its whole text. */
  text: string
}

/** What readSourceFiles made of a set of files. */
export type ReadSourceFiles = {
  /** The contracts with runtime code, from every file read. */
  contracts: SourceContract[]
  /** The files that gave something: build outputs, and Solidity files a Foundry artifact took its text from. */
  read: string[]
  /** The other files' names, each with why (not JSON, no known build output). */
  unread: { name: string; why: string }[]
  /** Files known to carry nothing more: Hardhat's per-contract artifacts and their .dbg.json (its build-info has it all). */
  skipped: string[]
}

const baseName = (name: string) => name.replace(/\\/g, '/').split('/').pop() ?? name

/**
 * The compiled contracts in a set of files, without a file system: the one parser of build outputs,
 * for the browser (`config.sources`, the explorer's dropped files) and `--sources` (readSourcesDir,
 * which picks a directory's files and reads them). What each JSON file is, it says itself —
 * - a solc standard-JSON output (`contracts`, `sources`), with the sources' text from a
 *   standard-JSON input among the files (`language`, `sources.*.content`) that has its sources;
 * - a Hardhat build-info (`{input, output}`), or any such pair in one file;
 * - a Foundry artifact (`out/<File>.sol/<Name>.json`: `deployedBytecode.object`), its sources from the
 *   Foundry build-info among the files whose source id is the artifact's file, else a `.sol` file whose
 *   path ends with the artifact's source path, else `options.sourceText`.
 * A Foundry build-info (its output carries no contracts) only lends its sources; Hardhat's own
 * per-contract artifacts carry no source map and are left to its build-info (`skipped`).
 */
export function readSourceFiles(
  files: readonly NamedSourceFile[],
  options: {
    /**
     * A Foundry artifact's source text where neither a build-info nor a `.sol` file among `files`
     * has it, by its source path (`src/Token.sol`): `--sources` reads it from the project on disk.
     */
    sourceText?: (path: string) => string | undefined
  } = {},
): ReadSourceFiles {
  const parsed: { name: string; json: Json }[] = []
  const solidity: NamedSourceFile[] = []
  const unread: { name: string; why: string }[] = []
  for (const f of files) {
    if (f.name.endsWith('.sol')) {
      solidity.push(f)
      continue
    }
    let json: unknown
    try {
      json = JSON.parse(f.text)
    } catch {
      unread.push({ name: f.name, why: 'not JSON' })
      continue
    }
    if (!json || typeof json !== 'object' || Array.isArray(json))
      unread.push({ name: f.name, why: 'not a JSON object' })
    else parsed.push({ name: f.name, json: json as Json })
  }
  const isInput = (j: Json) => typeof j.language === 'string' && typeof j.sources === 'object' && !j.contracts
  const inputs = parsed.filter((p) => isInput(p.json)).map((p) => p.json)
  const foundryInfos = parsed.filter(
    (p) => (p.json.source_id_to_path || p.json.input?.sources) && !p.json.output?.contracts,
  )
  const infoSources = foundryInfos.map((p) => ({ name: p.name, sources: buildInfoSources(p.json) }))
  const contracts: SourceContract[] = []
  const read = new Set<string>()
  for (const { name, json } of parsed) {
    if (isInput(json)) continue
    if (json.output?.contracts && typeof json.output.contracts === 'object') {
      contracts.push(...readStandardJson(json.output, json.input))
      read.add(name)
    } else if (json.contracts && typeof json.contracts === 'object') {
      const paths = Object.keys(json.sources ?? {})
      const input =
        json.input ?? inputs.find((i) => paths.length > 0 && paths.every((p) => i.sources?.[p]?.content !== undefined))
      contracts.push(...readStandardJson(json, input))
      read.add(name)
    } else if (typeof json.deployedBytecode?.object === 'string') {
      const file: string | undefined = json.ast?.absolutePath
      const id: number | undefined = typeof json.id === 'number' ? json.id : undefined
      const info = infoSources.find((s) => id !== undefined && file !== undefined && s.sources.get(id)?.path === file)
      let sources: Map<number, SourceFile>
      if (info) {
        sources = info.sources
        read.add(info.name)
      } else {
        sources = new Map()
        if (id !== undefined && file !== undefined) {
          const text = solidity.find((s) => s.name === file || s.name.replace(/\\/g, '/').endsWith(`/${file}`))
          if (text) read.add(text.name)
          sources.set(id, { path: file, content: text ? text.text : options.sourceText?.(file) })
        }
      }
      const contract = readFoundryArtifact(json, sources, baseName(name).replace(/\.json$/, ''))
      if (contract) contracts.push(contract)
      read.add(name)
    }
  }
  const skipped: string[] = []
  for (const { name, json } of parsed) {
    if (read.has(name)) continue
    if (typeof json._format === 'string' && /^hh-sol-(artifact|dbg)-/.test(json._format)) skipped.push(name)
    else if (isInput(json)) {
      if (!parsed.some((p) => read.has(p.name) && p.json.contracts && !p.json.input))
        unread.push({ name, why: 'a standard-JSON input without its output' })
      else read.add(name)
    } else if (foundryInfos.some((p) => p.name === name)) unread.push({ name, why: 'a build-info no artifact used' })
    else unread.push({ name, why: 'no solc standard-JSON output, Hardhat build-info or Foundry artifact' })
  }
  for (const s of solidity) if (!read.has(s.name)) unread.push({ name: s.name, why: 'a source no artifact named' })
  return { contracts, read: [...read], unread, skipped }
}
