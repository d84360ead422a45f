// Call and attempt bookkeeping. A call can be settled from several places (its reply, its own
// time limit, giving up); the first outcome wins. An attempt — one try at sending some calls, or the
// wait before the next — is abandoned as soon as nobody waits for any of its calls, so a hung
// upstream holds no slot and no socket waiter for calls that already failed.

export type Call = {
  id: number
  method: string
  /** The call's JSON text, made once when it is asked: a call that cannot be serialised fails alone. */
  text: string
  askedAt: number
  settled: boolean
  resolve: (value: unknown) => void
  reject: (err: unknown) => void
  /** Clears the call's own time limit once settled. */
  detach?: () => void
  /** The attempt now carrying the call: abandoned once every call it carries is settled. */
  attempt?: Attempt | undefined
}

/** One try at sending some calls: abandoned (slot freed, request aborted) once all of them are settled. */
export type Attempt = { calls: Call[]; controller: AbortController }

/** Every call of the attempt was settled elsewhere (its deadline passed): nobody waits for the answer. */
export class Abandoned extends Error {}

/** Makes `calls` ride on a new attempt, whose signal fires once all of them are settled. */
export function startAttempt(calls: Call[]): Attempt {
  const attempt: Attempt = { calls, controller: new AbortController() }
  for (const c of calls) c.attempt = attempt
  return attempt
}

/** Settles the call unless it already is, and abandons its attempt when that was the last call waited for. */
export function settleCall(call: Call, outcome: { value: unknown } | { error: unknown }): void {
  if (call.settled) return
  call.settled = true
  call.detach?.()
  if ('error' in outcome) call.reject(outcome.error)
  else call.resolve(outcome.value)
  const attempt = call.attempt
  if (attempt && !attempt.controller.signal.aborted && attempt.calls.every((c) => c.settled)) {
    attempt.controller.abort(new Abandoned())
  }
}

export function failCalls(calls: readonly Call[], error: unknown): void {
  for (const c of calls) settleCall(c, { error })
}
