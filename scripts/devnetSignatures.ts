// Writes demo/abi/devnetSignatures.ts: the devnet contracts' functions, events and errors as
// human-readable signatures, for the explorer's decoding (the ABIs live in the devnet's artifacts,
// which also hold bytecode the page must not carry). Run: `tsx scripts/devnetSignatures.ts`;
// test/explorerSignatures.test.ts fails when the file is out of date.
import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import artifacts from '../src/node/devnet/artifacts.json' with { type: 'json' }

type AbiParam = { type: string; name: string; indexed?: boolean }
type AbiEntry = { type: string; name?: string; inputs?: AbiParam[] }

export const DEVNET_SIGNATURES_FILE = resolve(
  fileURLToPath(new URL('..', import.meta.url)),
  'demo/abi/devnetSignatures.ts',
)

/** The devnet ABIs as `function f(uint256 n)`, `event E(address indexed a, …)`, `error X(…)` lines, sorted. */
export function devnetSignatures(): string[] {
  const out = new Set<string>()
  for (const contract of Object.values(artifacts.contracts as unknown as Record<string, { abi: AbiEntry[] }>)) {
    for (const entry of contract.abi) {
      if (!['function', 'event', 'error'].includes(entry.type) || !entry.name) continue
      const params = (entry.inputs ?? []).map((p) =>
        [p.type, p.indexed ? 'indexed' : '', p.name].filter(Boolean).join(' '),
      )
      out.add(`${entry.type} ${entry.name}(${params.join(', ')})`)
    }
  }
  return [...out].sort()
}

export function devnetSignaturesSource(): string {
  const lines = devnetSignatures().map((s) => `  '${s}',`)
  return `// Written by scripts/devnetSignatures.ts from the devnet's artifacts: do not edit.\nexport const DEVNET_SIGNATURES: readonly string[] = [\n${lines.join('\n')}\n]\n`
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(DEVNET_SIGNATURES_FILE, devnetSignaturesSource())
  console.log(`wrote ${DEVNET_SIGNATURES_FILE}`)
}
