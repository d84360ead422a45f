import type { BrowserCommand } from 'vitest/node'

/** Commands the browser tests run in Node (vitest's `commands` from 'vitest/browser'). */
export const browserCommands: Record<string, BrowserCommand<any[]>> = {
  ping: async () => 'pong',
}
