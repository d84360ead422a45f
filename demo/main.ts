import { type EdgetraceClient, connectEdgetraceWorker } from '../src/browser/connectEdgetraceWorker.js'
import { EXAMPLES, type Target, sendJsonRpc } from './sendJsonRpc.js'

const $ = <element extends HTMLElement>(id: string) => document.getElementById(id) as element
const form = $<HTMLFormElement>('form')
const url = $<HTMLInputElement>('url')
const method = $<HTMLSelectElement>('method')
const params = $<HTMLTextAreaElement>('params')
const output = $<HTMLPreElement>('output')
const status = $<HTMLParagraphElement>('status')
const where = $<HTMLSelectElement>('where')
const hardfork = $<HTMLInputElement>('hardfork')

// In-browser mode: the daemon in a Web Worker on this page, reading from the node at the URL.
let worker: { key: string; client: Promise<EdgetraceClient> } | undefined
function inBrowser(): Target {
  const key = `${url.value}|${hardfork.value}`
  if (!worker || worker.key !== key) {
    void worker?.client.then((c) => c.close()).catch(() => undefined)
    const client = connectEdgetraceWorker(
      new Worker(new URL('../worker/edgetrace.worker.ts', import.meta.url), { type: 'module' }),
      {
        upstream: url.value,
        api: ['eth', 'debug', 'trace', 'web3', 'net'],
        ...(hardfork.value ? { hardfork: hardfork.value } : {}),
      },
    )
    client.catch(() => (worker = undefined))
    worker = { key, client }
  }
  const pending = worker.client
  return async (message) =>
    (await pending).request(message, {
      onProgress: (e) => (status.textContent = `${e.method}: ${e.done} of ${e.total} ${e.unit}…`),
    })
}

for (const name of Object.keys(EXAMPLES)) method.add(new Option(name, name))
const showExample = () => {
  params.value = JSON.stringify(EXAMPLES[method.value], null, 2)
}
method.addEventListener('change', showExample)
showExample()

form.addEventListener('submit', async (event) => {
  event.preventDefault()
  status.textContent = 'sending…'
  output.className = ''
  let target: Target = url.value
  if (where.value === 'browser') {
    try {
      target = inBrowser()
      await worker!.client
    } catch (err) {
      status.textContent = 'the in-browser daemon could not start'
      output.className = 'error'
      output.textContent = String(err)
      return
    }
  }
  const outcome = await sendJsonRpc(target, method.value, params.value)
  status.textContent = outcome.summary
  output.className = outcome.ok ? '' : 'error'
  output.textContent = outcome.text
})
