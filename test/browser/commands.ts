import type { BrowserCommand } from 'vitest/node'
import { type Devnet, startDevnet } from '../../src/node/devnet/startDevnet.js'
import type { FixtureNode } from '../../tools/fixture-node/startFixtureNode.js'
import { startBorDevnet } from '../src/startBorDevnet.js'
import { beaconChainCommands } from './beaconChainCommands.js'

/** Devnets a browser test started (and may stop, to take its upstream away). */
const devnets = new Map<string, Devnet>()
const borDevnets = new Map<string, FixtureNode>()

/**
 * Commands the browser tests run in Node (`commands` from 'vitest/browser'): a devnet of their own
 * to stop, and a fresh page of the same browser context (same origin, same IndexedDB) that is
 * loaded, used, reloaded and used again — a real page reload.
 */
export const browserCommands: Record<string, BrowserCommand<any[]>> = {
  /** anvil under a fixture beacon chain carrying its blocks (beaconChainCommands.ts). */
  ...beaconChainCommands,
  startDevnet: async () => {
    const devnet = await startDevnet()
    devnets.set(devnet.anvil.url, devnet)
    return {
      anvilUrl: devnet.anvil.url,
      transactions: devnet.transactions,
      accounts: devnet.accounts,
      contracts: devnet.contracts,
    }
  },
  /** The tests' Bor devnet (test/src/borDevnet.ts) on a fixture node: its URL and its block hashes. */
  startBorDevnet: async () => {
    const node = await startBorDevnet()
    borDevnets.set(node.url, node)
    const hashes: string[] = []
    for (let n = 0n; n <= node.chain.head().block.header.number; n++) hashes.push(node.chain.byNumber(n)!.hash)
    return { url: node.url, hashes }
  },
  stopBorDevnet: async (_ctx, url: string) => {
    await borDevnets.get(url)?.close()
    borDevnets.delete(url)
  },
  stopDevnet: async (_ctx, url: string) => {
    await devnets.get(url)?.stop()
    devnets.delete(url)
  },
  /**
   * The demo console (index.html) in a new tab, in in-browser mode against `upstream`: sends
   * `method` with its example params by clicking Send; returns the status line and the output.
   */
  /**
   * Opens the harness page in a new tab of the test's browser context, runs `calls` through a fresh
   * edgetrace worker (the script at `workerUrl`) started with `config`, reloads the page and runs them again. Returns both runs.
   */
  runInFreshPageTwice: async (ctx, origin: string, config: unknown, calls: unknown[], workerUrl: string) => {
    const page = await (ctx as unknown as { context: { newPage(): Promise<any> } }).context.newPage()
    try {
      const run = async () => {
        await page.waitForFunction(() => (globalThis as { harness?: unknown }).harness !== undefined, undefined, {
          timeout: 60_000,
        })
        return page.evaluate(([c, k, w]: [unknown, unknown[], string]) => (globalThis as any).harness.run(c, k, w), [
          config,
          calls,
          workerUrl,
        ] as [unknown, unknown[], string])
      }
      await page.goto(`${origin}/test/browser/harness.html`)
      const first = await run()
      await page.reload()
      const second = await run()
      return [first, second]
    } finally {
      await page.close()
    }
  },
}
