import { afterEach, describe, expect, it } from 'vitest'
import { serveEdgetrace } from '../../src/browser/serveEdgetrace.js'
import { configFor } from './support.js'

/**
 * An iframe whose script sends one comlink call (`request(eth_chainId)`) to this page and reports
 * back whatever answer it gets. `sandbox` gives it an opaque origin ("null").
 */
function frame(sandboxed: boolean): HTMLIFrameElement {
  const iframe = document.createElement('iframe')
  if (sandboxed) iframe.setAttribute('sandbox', 'allow-scripts')
  iframe.srcdoc = `<script>
    addEventListener('message', (e) => { if (e.data && e.data.id === 'call-1') parent.postMessage({ reportFromFrame: e.data }, '*') })
    parent.postMessage({ id: 'call-1', type: 'APPLY', path: ['request'], argumentList: [{ type: 'RAW', value: { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] } }] }, '*')
  </script>`
  return iframe
}

async function answerFrom(iframe: HTMLIFrameElement, waitMs: number): Promise<unknown> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('no answer'), waitMs)
    addEventListener('message', function onReport(e) {
      if (e.source !== iframe.contentWindow || !e.data?.reportFromFrame) return
      clearTimeout(timer)
      removeEventListener('message', onReport)
      resolve(e.data.reportFromFrame.value)
    })
    document.body.append(iframe)
  })
}

// edgetrace served on a window (an embedding page or frame): messages from origins it was not
// configured for get no answer; its own origin, or one it lists, is served.
describe('origins', () => {
  let cleanup: (() => void)[] = []
  afterEach(() => {
    for (const c of cleanup) c()
    cleanup = []
  })

  async function serveFor(iframe: HTMLIFrameElement, allowedOrigins?: string[]) {
    // Listens on this window; answers go to the frame (looked up when answering: it loads later).
    const endpoint = {
      postMessage: (message: unknown, transfer?: Transferable[]) =>
        iframe.contentWindow?.postMessage(message, '*', transfer ?? []),
      addEventListener: window.addEventListener.bind(window),
      removeEventListener: window.removeEventListener.bind(window),
    }
    const remote = serveEdgetrace(endpoint as never, allowedOrigins ? { allowedOrigins } : {})
    expect(await remote.start(configFor())).toHaveProperty('status.chainId', '0x7a69')
    cleanup.push(
      () => iframe.remove(),
      () => void remote.close(),
    )
    return remote
  }

  it('answers a frame of its own origin', async () => {
    const iframe = frame(false)
    await serveFor(iframe)
    expect(await answerFrom(iframe, 3000)).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a69' })
  })

  it('ignores a frame of another origin', async () => {
    const iframe = frame(true)
    await serveFor(iframe)
    expect(await answerFrom(iframe, 1000)).toBe('no answer')
  })

  it('answers that origin once it is listed', async () => {
    const iframe = frame(true)
    await serveFor(iframe, [location.origin, 'null'])
    expect(await answerFrom(iframe, 3000)).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a69' })
  })
})
