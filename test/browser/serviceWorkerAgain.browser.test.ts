import { expect, it } from 'vitest'
import { registerEdgetraceServiceWorker } from '../../src/browser/registerEdgetraceServiceWorker.js'
import { configFor, serviceWorkerScript } from './support.js'

type Harness = {
  registerServiceWorker(
    config: unknown,
    timeoutMs: number,
    scriptUrl: string,
  ): Promise<{ url: string; answer: unknown; unregister(): Promise<boolean> }>
}

async function openHarness(): Promise<{ frame: HTMLIFrameElement; harness: Harness }> {
  const frame = document.createElement('iframe')
  frame.src = '/test/browser/harness.html'
  document.body.append(frame)
  for (let i = 0; i < 600; i++) {
    const harness = (frame.contentWindow as { harness?: Harness } | null)?.harness
    if (harness) return { frame, harness }
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error('the harness page did not load in 30 s')
}

// A page loaded while the service worker's registration was being removed (another page
// unregistered it and still uses it) is not controlled by it; registering again revives the same
// registration without installing or activating anything, so nothing claims the page — the page
// must ask the active worker to claim it, or it waits for control forever.
it('a page loaded after another unregistered the service worker registers it again and is served', async () => {
  const first = await registerEdgetraceServiceWorker({
    ...serviceWorkerScript(),
    config: { ...configFor(), path: '/rpc-again' },
  })
  expect(await first.unregister()).toBe(true)
  const { frame, harness } = await openHarness()
  try {
    expect(frame.contentWindow!.navigator.serviceWorker.controller).toBeNull()
    const second = await harness.registerServiceWorker(
      { ...configFor(), path: '/rpc-again' },
      10_000,
      serviceWorkerScript().scriptUrl,
    )
    expect(second.answer).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a69' })
    await second.unregister()
  } finally {
    frame.remove()
  }
})
