import { describe, expect, it } from 'vitest'
import { createTracerRelay } from './createTracerRelay.js'

// The relay's own logic (the whole path, through a real service worker and a hosting page, is in
// test/browser/serviceWorker.browser.test.ts): which page is asked, its answer, an abort.
describe('createTracerRelay', () => {
  const page = (onRequest: (text: string, port: MessagePort) => void) => ({
    postMessage(message: unknown, transfer: Transferable[]) {
      onRequest((message as { text: string }).text, transfer[0] as MessagePort)
    },
  })

  it('answers a clear error while no page hosts tracers, and skips hosts that closed', async () => {
    const relay = createTracerRelay({ get: async () => undefined })
    expect(relay.hasFree()).toBe(false)
    await expect(relay.run('{}')).rejects.toThrow('none is open')
    relay.addHost('gone')
    expect(relay.hasFree()).toBe(true)
    await expect(relay.run('{}')).rejects.toThrow('none is open')
    expect(relay.hasFree()).toBe(false)
  })

  it('hands the request to the newest host and resolves with its answer (or its error)', async () => {
    const asked: string[] = []
    const hosts: Record<string, ReturnType<typeof page>> = {
      old: page(() => asked.push('old')),
      new: page((text, port) => {
        asked.push('new')
        port.postMessage(text === 'fail' ? { error: { code: -32000, message: 'nope' } } : { text: `answer to ${text}` })
      }),
    }
    const relay = createTracerRelay({ get: async (id) => hosts[id] })
    relay.addHost('old')
    relay.addHost('new')
    expect(await relay.run('ping')).toBe('answer to ping')
    await expect(relay.run('fail')).rejects.toMatchObject({ code: -32000, message: 'nope' })
    expect(asked).toEqual(['new', 'new'])
  })

  it('an abort is passed to the host (which ends its worker) and rejects at once', async () => {
    let told: unknown
    const relay = createTracerRelay({
      get: async () =>
        page((_text, port) => {
          port.onmessage = (event) => {
            told = event.data
          }
        }),
    })
    relay.addHost('page')
    const abort = new AbortController()
    const running = relay.run('endless', abort.signal)
    await new Promise((resolve) => setTimeout(resolve, 10))
    abort.abort(new Error('execution timeout'))
    await expect(running).rejects.toThrow('execution timeout')
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(told).toEqual({ abort: true })
  })
})
