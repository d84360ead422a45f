import { afterAll, expect } from 'vitest'
import { installProcessGuard } from '../../src/node/installProcessGuard.js'

// Every test file runs with the server's process guard installed: a promise left unhandled or an
// exception thrown from a callback anywhere in edgetrace (or a test) fails the file here, naming it.
// The node project runs its files one after another in each worker process (isolate: false), so the
// guard is taken off at the file's end: each file's guard sees only its own file's errors.
const guard = installProcessGuard(() => {})

afterAll(async () => {
  // Rejections surface on the next turns of the event loop: give late ones a chance to show.
  await new Promise((resolve) => setTimeout(resolve, 20))
  guard.uninstall()
  const caught = guard.caught.map(
    ({ kind, error }) => `${kind}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  )
  expect(caught, 'the process guard caught errors nobody handled').toEqual([])
})
