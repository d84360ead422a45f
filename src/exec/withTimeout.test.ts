import { describe, expect, it } from 'vitest'
import { createExecutionDeadline, withTimeout } from './withTimeout.js'

describe('withTimeout', () => {
  it('leaves no listener on a shared deadline once a run is over, however many runs share it', async () => {
    const shared = createExecutionDeadline(60_000)
    const warnings: string[] = []
    const onWarning = (w: Error) => warnings.push(w.name)
    process.on('warning', onWarning)
    try {
      for (let i = 0; i < 50; i++) expect(await withTimeout(60_000, async () => i, shared)).toBe(i)
      // Node warns once more than 10 listeners wait on one signal (a leak per run would pass that).
      await new Promise((resolve) => setImmediate(resolve))
      expect(warnings).not.toContain('MaxListenersExceededWarning')
    } finally {
      process.off('warning', onWarning)
      shared.dispose()
    }
  })

  it('still fails a run with the shared deadline once it passes', async () => {
    const shared = createExecutionDeadline(20)
    const never = new Promise<never>(() => {})
    await expect(withTimeout(60_000, () => never, shared)).rejects.toThrow('execution aborted (timeout = 20ms)')
  })
})
