import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { startAnvil } from './startAnvil.js'

it("keeps anvil's on-disk states in a home of its own, removed when anvil stops", async () => {
  // With few states in memory, anvil writes the older ones under $HOME/.foundry/anvil/tmp — and
  // never removes them itself (gigabytes after a long devnet).
  const anvil = await startAnvil({ args: ['--max-persisted-states', '2'] })
  try {
    await fetch(anvil.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_mine', params: ['0x400'] }),
    })
    const states = join(anvil.home, '.foundry', 'anvil', 'tmp')
    // anvil writes them in the background: wait (bounded) for the first.
    for (let i = 0; i < 100 && !(existsSync(states) && readdirSync(states).length > 0); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(readdirSync(states).length).toBeGreaterThan(0)
  } finally {
    await anvil.stop()
  }
  expect(existsSync(anvil.home)).toBe(false)
}, 60_000)
