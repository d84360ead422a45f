import { rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../src/node/devnet/startDevnet.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { buildExplorerPage } from './src/buildExplorerPage.js'
import { openChromiumPage } from './src/openChromiumPage.js'
import { rpcResult } from './src/rpc.js'
import { screenshotsDir } from './src/screenshotsDir.js'
// The explorer page's trust panel as a person sees it: which block is real, from edgetrace_trust — in
// consensus mode (the devnet's beacon chain, as `npm start -- --devnet.beacon` has it) the finalized
// slot, how many of the committee signed and the checkpoint; with a checkpoint its hash; in upstream
// mode (the plain devnet) a red warning. Screenshots go to EDGETRACE_SCREENSHOTS or a temp directory.
const SHOTS = screenshotsDir()

let devnet: Devnet
let pageDir: string
let browser: Browser
let page: Page
const servers: Record<'upstream' | 'consensus' | 'checkpoint', RunningEdgetrace> = {} as never

beforeAll(async () => {
  pageDir = await buildExplorerPage()
  devnet = await startDevnet({ beacon: true })
  const common = {
    upstream: devnet.anvil.url,
    port: 0,
    hardfork: devnet.anvil.hardfork,
    api: ['eth', 'debug', 'trace'],
    explorerDir: pageDir,
  }
  servers.upstream = await startEdgetrace({ ...common, explorerInfo: { devnet: true, upstream: devnet.anvil.url } })
  servers.consensus = await startEdgetrace({
    ...common,
    beacon: { url: devnet.beacon!.url, checkpoint: devnet.beacon!.checkpoint },
  })
  const block5 = await rpcResult(devnet.anvil.url, 'eth_getBlockByNumber', ['0x5', false])
  servers.checkpoint = await startEdgetrace({ ...common, checkpoint: block5.hash })
  ;({ browser, page } = await openChromiumPage({ width: 1280, height: 500 }))
}, 240_000)

afterAll(async () => {
  await browser?.close()
  for (const s of Object.values(servers)) await s?.close()
  await devnet?.stop().catch(() => undefined)
  if (pageDir) rmSync(pageDir, { recursive: true, force: true })
})

async function open(server: RunningEdgetrace, selector: string) {
  await page.goto(`${server.url}/`)
  await page.waitForSelector(selector, { timeout: 60_000 })
  return (await page.textContent('#trust')) ?? ''
}

describe('the explorer page says which block is real', () => {
  it('in trust mode upstream (the plain devnet): a red warning that blocks are the upstream’s word', async () => {
    const text = await open(servers.upstream, '#trust.trust-upstream')
    expect(text).toMatch(/⚠ Blocks are the upstream’s word: .*trust mode upstream/)
    expect(text).toContain('--devnet.beacon')
    expect(await page.$eval('#trust', (el) => getComputedStyle(el).color)).toBe('rgb(207, 34, 46)')
    await page.locator('#trust').screenshot({ path: join(SHOTS, 'trust-upstream.png') })
  })

  it('in trust mode consensus (--devnet.beacon): the finalized slot, n/N signatures and the checkpoint', async () => {
    const trust = await rpcResult(servers.consensus.url, 'edgetrace_trust')
    const text = await open(servers.consensus, '#trust.trust-consensus')
    expect(text).toContain(`✔ Anchored in consensus: finalized slot ${Number(trust.finalized.slot)}, 32/32 signatures`)
    expect(text).toContain(`head slot ${Number(trust.optimistic.slot)} (block ${Number(trust.optimistic.blockNumber)})`)
    expect(text).toMatch(new RegExp(`Checkpoint ${devnet.beacon!.checkpoint.slice(0, 10)}…`))
    expect(await page.$eval('#trust .trust-checkpoint code', (el) => el.getAttribute('title'))).toBe(
      devnet.beacon!.checkpoint,
    )
    expect(await page.$eval('#trust', (el) => getComputedStyle(el).color)).not.toBe('rgb(207, 34, 46)')
    await page.locator('#trust').screenshot({ path: join(SHOTS, 'trust-consensus.png') })
    await page.screenshot({ path: join(SHOTS, 'trust-consensus-page.png') })
  })

  it('in trust mode checkpoint: the checkpoint hash numbers link to', async () => {
    const trust = await rpcResult(servers.checkpoint.url, 'edgetrace_trust')
    const text = await open(servers.checkpoint, '#trust.trust-checkpoint-mode')
    expect(text).toMatch(/Anchored by a checkpoint: blocks asked by number or tag must link by parent hashes to 0x/)
    expect(await page.$eval('#trust .trust-checkpoint code', (el) => el.getAttribute('title'))).toBe(trust.checkpoint)
    await page.locator('#trust').screenshot({ path: join(SHOTS, 'trust-checkpoint.png') })
    console.log(`trust panel screenshots in ${SHOTS}`)
  })
})
