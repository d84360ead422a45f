import { type Browser, type Page, chromium } from 'playwright'
import { CHROMIUM_ARGS, resolveChromium } from '../../scripts/resolveChromium.js'

/** Headless Chromium with one page of `viewport`, whose uncaught errors are logged. */
export async function openChromiumPage(viewport: { width: number; height: number }): Promise<{
  browser: Browser
  page: Page
}> {
  const browser = await chromium.launch({ executablePath: await resolveChromium(), args: CHROMIUM_ARGS })
  const page = await browser.newPage({ viewport })
  page.on('pageerror', (err) => console.error('page error:', err.message))
  return { browser, page }
}
