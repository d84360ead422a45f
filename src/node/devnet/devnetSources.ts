import { createSourceRegistry, type SourceRegistry } from '../../sources/createSourceRegistry.js'
import { readSourceFiles } from '../../sources/readSourceFiles.js'
import type { SourceContract } from '../../sources/types.js'
import buildInfo from './sources.json' with { type: 'json' }

/**
 * The devnet contracts' build-info (`{input, output}`: their Solidity sources, runtime source maps,
 * ABIs and storage layouts), as scripts/compileContracts.ts wrote it beside artifacts.json from the
 * same compilation: the text the server gives the explorer page (GET /explorer-sources.json).
 */
export const devnetSourcesText = (): string => JSON.stringify(buildInfo)

/** The devnet's contracts as the source-level tracer matches them (by runtime code). */
export function devnetSourceContracts(): SourceContract[] {
  return readSourceFiles([{ name: 'devnet sources.json', text: devnetSourcesText() }]).contracts
}

/** A registry of the devnet's contracts and of `more` (`--sources`). */
export const devnetSourceRegistry = (more: SourceContract[] = []): SourceRegistry =>
  createSourceRegistry([...devnetSourceContracts(), ...more])
