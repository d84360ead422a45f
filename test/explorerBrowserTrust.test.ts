import { createServer } from 'node:net'
import { join } from 'node:path'
import type { Page } from 'playwright'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import type { RunningEdgetrace } from '../src/node/startEdgetrace.js'
import { screenshotsDir } from './src/screenshotsDir.js'
import { type ExplorerPage, startExplorerPage } from './src/startExplorerPage.js'
// The explorer page in browser mode ("edgetrace in this browser") as a person sees it, served by a
// server on the devnet with a beacon chain (`npm start -- --devnet.beacon`): the beacon node is
// prefilled from the server's info, and the daemon in the page's worker anchors blocks in its sync
// committee — the trust panel shows the finalized slot, the signatures and the checkpoint trusted on
// first use. A lying or unreachable beacon node fails the start, said in the connection status by
// name; without a beacon node the panel is the red upstream warning.
const SHOTS = screenshotsDir()

let explorer: ExplorerPage
let devnet: Devnet
let server: RunningEdgetrace
let page: Page

beforeAll(async () => {
  // As the CLI starts it for --devnet.beacon: consensus mode, and the page told the devnet's node and beacon node.
  explorer = await startExplorerPage({
    devnet: { beacon: true },
    server: (devnet) => ({ beacon: { url: devnet.beacon!.url, checkpoint: devnet.beacon!.checkpoint } }),
    viewport: { width: 1280, height: 700 },
  })
  ;({ devnet, server, page } = explorer)
}, 240_000)

afterAll(() => explorer?.close())

const text = async (selector: string) => (await page.textContent(selector, { timeout: 90_000 })) ?? ''
/** Connects with the form as it is now, and waits for the new connection's trust panel (the old one is marked). */
async function connect() {
  await page.$eval('#trust', (el) => el.setAttribute('data-stale', ''))
  await page.click('#conn-form button[type=submit]')
  await page.waitForSelector('#trust:not([data-stale])', { timeout: 90_000 })
}
/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = createServer()
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))
  const { port } = s.address() as { port: number }
  await new Promise((resolve) => s.close(resolve))
  return port
}

describe('the explorer page in browser mode, with a beacon node', () => {
  it('prefills the devnet’s beacon node and shows the consensus panel: finalized slot, 32/32 signatures, the checkpoint trusted on first use', async () => {
    await page.goto(`${server.url}/`)
    await page.waitForSelector('a.demo-tx')
    expect(await page.isVisible('#beacon')).toBe(false)
    await page.selectOption('#mode', 'browser')
    expect(await page.isVisible('#beacon')).toBe(true)
    expect(await page.inputValue('#url')).toBe(devnet.anvil.url)
    expect(await page.inputValue('#beacon')).toBe(devnet.beacon!.url)
    expect(await page.inputValue('#checkpoint')).toBe('')
    await connect()
    const status = await text('#conn-status')
    expect(status).toBe(
      `answered by edgetrace in this browser, reading ${devnet.anvil.url}, anchored by the beacon node ${devnet.beacon!.url}`,
    )
    const panel = await text('#trust')
    expect(panel).toMatch(
      /^✔ Anchored in consensus: finalized slot \d+, 32\/32 signatures · head slot \d+ \(block \d+\)/,
    )
    expect(panel).toContain('(trusted on first use: nothing vouched for it)')
    expect(panel).toContain(`beacon node ${devnet.beacon!.url}`)
    // The head is anvil's latest, as the beacon chain carries it (slot s carries block s).
    const head = Number(panel.match(/head slot (\d+) \(block (\d+)\)/)![2])
    const anvilHead = Number(
      (
        (await (
          await fetch(devnet.anvil.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}',
          })
        ).json()) as { result: string }
      ).result,
    )
    expect(head).toBe(anvilHead)
    // The checkpoint shown is a beacon block root (its full value in the title).
    expect(await page.$eval('#trust .trust-checkpoint code', (el) => el.getAttribute('title'))).toMatch(
      /^0x[0-9a-f]{64}$/,
    )
    expect(await page.$eval('#trust', (el) => getComputedStyle(el).color)).not.toBe('rgb(207, 34, 46)')
    await page.locator('#trust').screenshot({ path: join(SHOTS, 'in-browser-consensus.png') })
    await page.screenshot({ path: join(SHOTS, 'in-browser-consensus-page.png') })

    // A transaction traced in the page's worker rests on that anchored chain.
    await page.click('a.demo-tx')
    await page.waitForSelector('#calls .call-tree', { timeout: 90_000 })
    expect(await text('.verification')).toContain('answered by edgetrace in this browser')
  }, 240_000)

  it('remembers the beacon node: a reload starts in browser mode with it, from the pin', async () => {
    await page.goto(`${server.url}/`)
    await page.waitForSelector('#trust.trust-consensus', { timeout: 90_000 })
    expect(await page.inputValue('#mode')).toBe('browser')
    expect(await page.inputValue('#beacon')).toBe(devnet.beacon!.url)
    expect(await text('#conn-status')).toContain(`anchored by the beacon node ${devnet.beacon!.url}`)
  }, 120_000)

  it('a beacon node left as an earlier devnet suggested follows this devnet’s; one the person typed stays', async () => {
    const stale = `http://127.0.0.1:${await closedPort()}`
    await page.evaluate((url) => {
      for (const key of ['beacon', 'url.browser']) {
        localStorage.setItem(`edgetrace.explorer.${key}`, url)
        localStorage.setItem(`edgetrace.explorer.${key}.suggested`, url)
      }
    }, stale)
    await page.reload()
    await page.waitForSelector('#trust.trust-consensus', { timeout: 90_000 })
    expect(await page.inputValue('#beacon')).toBe(devnet.beacon!.url)
    expect(await page.inputValue('#url')).toBe(devnet.anvil.url)

    await page.evaluate((url) => {
      localStorage.setItem('edgetrace.explorer.beacon', url)
      localStorage.setItem('edgetrace.explorer.beacon.suggested', 'http://127.0.0.1:1')
    }, stale)
    await page.reload()
    await page.waitForSelector('#conn-status .error', { timeout: 90_000 })
    expect(await page.inputValue('#beacon')).toBe(stale)
  }, 180_000)

  it('a lying beacon node fails the start, said in the connection status by what failed', async () => {
    await page.fill('#beacon', devnet.beacon!.url)
    devnet.beacon!.beacon.lie = 'signature'
    try {
      await connect()
      const status = await text('#conn-status')
      expect(status).toMatch(
        new RegExp(`^could not start \\(beacon node ${devnet.beacon!.url}\\): light client: signature does not verify`),
      )
      expect(await page.$eval('#conn-status .error', (el) => getComputedStyle(el).color)).toBe('rgb(207, 34, 46)')
      await page.locator('header').screenshot({ path: join(SHOTS, 'in-browser-lying-beacon.png') })
    } finally {
      devnet.beacon!.beacon.lie = undefined
    }
  }, 120_000)

  it('an unreachable beacon node fails the start, naming it', async () => {
    const gone = `http://127.0.0.1:${await closedPort()}`
    await page.fill('#beacon', gone)
    await connect()
    const status = await text('#conn-status')
    expect(status).toContain(`could not start (beacon node ${gone}): beacon API ${gone}/eth/v1/`)
    await page.locator('header').screenshot({ path: join(SHOTS, 'in-browser-unreachable-beacon.png') })
  }, 120_000)

  it('a checkpoint that is no beacon block root, or one without a beacon node, is refused naming the field', async () => {
    await page.fill('#beacon', devnet.beacon!.url)
    await page.fill('#checkpoint', '0x1234')
    await connect()
    expect(await text('#conn-status')).toMatch(
      /^could not start \(beacon node .*\): invalid checkpoint: .*beacon block root/,
    )
    await page.fill('#beacon', '')
    await connect()
    expect(await text('#conn-status')).toMatch(/^could not start: checkpoint: .*give the beacon node too/)
  }, 120_000)

  it('with a checkpoint given, the panel shows it and no first-use warning', async () => {
    await page.fill('#beacon', devnet.beacon!.url)
    await page.fill('#checkpoint', devnet.beacon!.checkpoint)
    await connect()
    const panel = await text('#trust')
    expect(panel).not.toContain('trusted on first use')
    expect(await page.$eval('#trust .trust-checkpoint code', (el) => el.getAttribute('title'))).toBe(
      devnet.beacon!.checkpoint,
    )
  }, 120_000)

  it('without a beacon node: the red upstream warning', async () => {
    await page.fill('#beacon', '')
    await page.fill('#checkpoint', '')
    await connect()
    expect(await text('#conn-status')).toBe(`answered by edgetrace in this browser, reading ${devnet.anvil.url}`)
    expect(await text('#trust')).toMatch(/⚠ Blocks are the upstream’s word: .*trust mode upstream/)
    expect(await text('#trust')).toContain('Anchor it with a beacon node above')
    expect(await page.$eval('#trust', (el) => getComputedStyle(el).color)).toBe('rgb(207, 34, 46)')
    await page.locator('#trust').screenshot({ path: join(SHOTS, 'in-browser-upstream.png') })
    console.log(`in-browser trust screenshots in ${SHOTS}`)
  }, 120_000)
})
