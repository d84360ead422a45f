import { rmSync } from 'node:fs'
import type { Browser, Page } from 'playwright'
import { type Devnet, startDevnet } from '../../src/node/devnet/startDevnet.js'
import { devnetExplorerInfo } from '../../src/node/devnetExplorerInfo.js'
import { devnetSourceRegistry, devnetSourcesText } from '../../src/node/devnet/devnetSources.js'
import { type RunningEdgetrace, type StartEdgetraceParameters, startEdgetrace } from '../../src/node/startEdgetrace.js'
import { buildExplorerPage } from './buildExplorerPage.js'
import { openChromiumPage } from './openChromiumPage.js'

/** The namespaces the explorer page's servers serve in the tests. */
const EXPLORER_API = ['eth', 'vendor', 'debug', 'trace', 'web3', 'net']

type ServeOptions = Omit<StartEdgetraceParameters, 'port' | 'api' | 'explorerDir'>

export type ExplorerPage = {
  devnet: Devnet
  /** edgetrace on the devnet, serving the page on GET / and told the devnet's names and sources (as the CLI's `--devnet`). */
  server: RunningEdgetrace
  browser: Browser
  page: Page
  /** Another server of the same page and namespaces (e.g. reading another node); closed by `close()`. */
  serve(options: ServeOptions): Promise<RunningEdgetrace>
  /** Closes the browser, the servers and the devnet, and removes the built page. */
  close(): Promise<void>
}

/**
 * The explorer page as `npm run build` builds it (into a directory of its own), the embedded devnet
 * (`devnet`: startDevnet's options; `beforeServer` runs on it before the server starts), edgetrace on
 * it serving the page (`server`: more of startEdgetrace's options, e.g. the devnet's `beacon`), and headless
 * Chromium with one page of `viewport`. What started is stopped again when a later step fails.
 */
export async function startExplorerPage(
  options: {
    devnet?: Parameters<typeof startDevnet>[0]
    beforeServer?: (devnet: Devnet) => Promise<void>
    server?: (devnet: Devnet) => Partial<StartEdgetraceParameters>
    viewport?: { width: number; height: number }
  } = {},
): Promise<ExplorerPage> {
  const servers: RunningEdgetrace[] = []
  let pageDir: string | undefined
  let devnet: Devnet | undefined
  let browser: Browser | undefined
  const close = async () => {
    await browser?.close()
    for (const s of servers) await s.close()
    await devnet?.stop().catch(() => undefined)
    if (pageDir) rmSync(pageDir, { recursive: true, force: true })
  }
  const serve = async (serverOptions: ServeOptions) => {
    const server = await startEdgetrace({ port: 0, api: EXPLORER_API, explorerDir: pageDir!, ...serverOptions })
    servers.push(server)
    return server
  }
  try {
    pageDir = await buildExplorerPage()
    devnet = await startDevnet(options.devnet)
    await options.beforeServer?.(devnet)
    const server = await serve({
      upstream: devnet.anvil.url,
      hardfork: devnet.anvil.hardfork,
      explorerInfo: devnetExplorerInfo(devnet, devnet.anvil.hardfork),
      // The devnet's sources, as `npm start` gives them: the page's stepper at the Solidity line.
      explorerSources: devnetSourcesText(),
      engine: { sources: devnetSourceRegistry() },
      ...options.server?.(devnet),
    })
    let page: Page
    ;({ browser, page } = await openChromiumPage(options.viewport ?? { width: 1280, height: 900 }))
    return { devnet, server, browser, page, serve, close }
  } catch (err) {
    await close()
    throw err
  }
}
