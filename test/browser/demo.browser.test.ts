import { expect, it } from 'vitest'
import { commands } from 'vitest/browser'
import { env, nodeAnswer } from './support.js'
import { EXAMPLES } from '../../demo/sendJsonRpc.js'

// The demo console in in-browser mode: the daemon in the page's worker, reading from anvil, answers
// the example debug_traceCall exactly as the Node server does.
it('the demo console traces a call in the browser, as the Node server does', async () => {
  const shown = await commands.runDemoInBrowser(location.origin, env().anvilUrl, 'debug_traceCall')
  expect(shown.status).toMatch(/^answered in \d+ ms$/)
  const want = await nodeAnswer('debug_traceCall', EXAMPLES.debug_traceCall!)
  expect(JSON.parse(shown.output)).toEqual(want.result)
})
