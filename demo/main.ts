import { EXAMPLES, sendJsonRpc } from './sendJsonRpc.js'

const $ = <element extends HTMLElement>(id: string) => document.getElementById(id) as element
const form = $<HTMLFormElement>('form')
const url = $<HTMLInputElement>('url')
const method = $<HTMLSelectElement>('method')
const params = $<HTMLTextAreaElement>('params')
const output = $<HTMLPreElement>('output')
const status = $<HTMLParagraphElement>('status')

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
  const outcome = await sendJsonRpc(url.value, method.value, params.value)
  status.textContent = outcome.summary
  output.className = outcome.ok ? '' : 'error'
  output.textContent = outcome.text
})
