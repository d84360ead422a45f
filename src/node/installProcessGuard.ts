/** What the guard has caught: each is a bug of edgetrace's (a promise nobody awaited, a throw in a callback). */
export type ProcessGuard = {
  readonly caught: readonly { kind: 'unhandledRejection' | 'uncaughtException'; error: unknown }[]
  uninstall(): void
}

/**
 * The last line of defence of a server that must not die of a client's or an upstream's behaviour:
 * an unhandled rejection or an uncaught exception is logged as a bug, with its stack, and the
 * process keeps serving (Node's default would end it, dropping every other client's request).
 * Every such report is a bug to fix where the promise was left unawaited; the test suite asserts
 * that none fires (test/setup/processGuard.ts).
 */
export function installProcessGuard(log: (line: string) => void): ProcessGuard {
  const caught: { kind: 'unhandledRejection' | 'uncaughtException'; error: unknown }[] = []
  const report = (kind: 'unhandledRejection' | 'uncaughtException') => (error: unknown) => {
    if (caught.length < 100) caught.push({ kind, error })
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error)
    log(`edgetrace bug (${kind}, kept serving; please report it): ${text}`)
  }
  const onRejection = report('unhandledRejection')
  const onException = report('uncaughtException')
  process.on('unhandledRejection', onRejection)
  process.on('uncaughtException', onException)
  return {
    caught,
    uninstall() {
      process.off('unhandledRejection', onRejection)
      process.off('uncaughtException', onException)
    },
  }
}
