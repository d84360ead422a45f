import { Mainnet } from '@ethereumjs/common'

/**
 * Forks @ethereumjs/common lists that edgetrace cannot execute: its Amsterdam is a draft (EIP-7928's
 * block access lists and a dozen more) whose header carries a blockAccessListHash no real node's
 * header has, so under it no block would verify ("header does not verify"), nor run as the chain does.
 */
const NOT_EXECUTABLE: ReadonlySet<string> = new Set(['amsterdam'])

/** The names `--hardfork` takes: every fork @ethereumjs/common runs, oldest first (chainstart … bpo2). */
export const EXECUTABLE_HARDFORKS: readonly string[] = Mainnet.hardforks
  .map((h) => h.name)
  .filter((name) => !NOT_EXECUTABLE.has(name))

/**
 * Why `--hardfork name` cannot be served, or undefined when edgetrace executes that fork: a fork it
 * knows but cannot run yet, or a name it does not know; either way naming the forks it can run.
 */
export function unexecutableHardfork(name: string): string | undefined {
  if (EXECUTABLE_HARDFORKS.includes(name)) return undefined
  const why = NOT_EXECUTABLE.has(name)
    ? "edgetrace cannot execute it yet (ethereumjs' Amsterdam is a draft: no node's headers verify under it)"
    : 'no such hardfork'
  return `--hardfork ${name}: ${why}. The forks it runs: ${EXECUTABLE_HARDFORKS.join(', ')}`
}
