import artifacts from '../../src/node/devnet/artifacts.json' with { type: 'json' }
import buildInfo from '../../src/node/devnet/sources.json' with { type: 'json' }
import { createSourceRegistry } from '../../src/sources/createSourceRegistry.js'
import { readSourceFiles } from '../../src/sources/readSourceFiles.js'
import type { CallFrame } from '../traceTypes.js'

// For the source level's unit tests: the devnet's committed build-info as the page's sources, its
// artifacts' code, and call frames as callTracer gives them.

/** The devnet's contracts, as the page registers them from its build-info. */
export const devnetRegistry = () =>
  createSourceRegistry(readSourceFiles([{ name: 'sources.json', text: JSON.stringify(buildInfo) }]).contracts)

/** A devnet contract's artifact: `bytecode` (creation) and `deployedBytecode`, 0x hex. */
export const artifact = (name: string) =>
  (artifacts.contracts as Record<string, { bytecode: string; deployedBytecode: string }>)[name]!

/** A callTracer frame. */
export const call = (type: string, to: string, input: string, calls: CallFrame[] = []): CallFrame => ({
  type,
  from: '0x01',
  to,
  gas: '0x0',
  gasUsed: '0x0',
  input,
  calls,
})
