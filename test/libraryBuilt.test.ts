import { afterAll, beforeAll, expect, it } from 'vitest'
import { rpcResult } from './src/rpc.js'
import { type LibraryPage, serveLibraryPage } from './src/serveLibraryPage.js'

// createEdgetrace as built (issue 35): the browser library bundle and the worker copied side by
// side, a page importing createEdgetrace with no `worker` option — the default worker is the
// edgetrace.worker.js beside the module — opened in Chromium against anvil.
let served: LibraryPage

beforeAll(async () => {
  served = await serveLibraryPage(
    'library-built',
    (anvilUrl) => `<!doctype html><meta charset="utf-8"><title>library</title><pre id="out">…</pre>
<script type="module">
  import { createEdgetrace } from './edgetrace.browser.js'
  try {
    const edgetrace = await createEdgetrace({ upstream: '${anvilUrl}', hardfork: 'prague', cache: false })
    const block = await edgetrace.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })
    const call = { from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', to: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', value: '0x1' }
    const trace = await edgetrace.request({ method: 'debug_traceCall', params: [call, 'latest', { tracer: 'callTracer' }] })
    await edgetrace.close()
    document.getElementById('out').textContent = JSON.stringify({ hash: block.hash, trace })
  } catch (err) {
    document.getElementById('out').textContent = JSON.stringify({ error: String(err && err.message || err) })
  }
</script>`,
  )
}, 120_000)

afterAll(() => served?.close())

it('the built createEdgetrace starts its worker from beside the module and answers as anvil', async () => {
  const { shown, errors } = await served.read('…')
  expect(errors).toEqual([])
  expect(shown.error).toBeUndefined()
  expect(shown.hash).toBe((await rpcResult(served.anvil.url, 'eth_getBlockByNumber', ['latest', false])).hash)
  expect(shown.trace).toMatchObject({ type: 'CALL', value: '0x1', gasUsed: '0x5208' })
})
