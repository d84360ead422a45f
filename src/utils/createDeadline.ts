import type { AbortCheck, Deadline } from '../types/deadline.js'

/** Aborted as soon as any of `checks` is (the first aborted one's reason). */
export function anyAborted(...checks: (AbortCheck | undefined)[]): AbortCheck {
  const present = checks.filter((c): c is AbortCheck => c !== undefined)
  return {
    get aborted() {
      return present.some((c) => c.aborted)
    },
    get reason() {
      return present.find((c) => c.aborted)?.reason
    },
  }
}

export function createDeadline(ms: number, reason: () => unknown): Deadline {
  let at = Date.now() + ms
  const controller = new AbortController()
  let timer: ReturnType<typeof setTimeout> | undefined
  let error: unknown
  const fire = () => {
    error ??= reason()
    controller.abort(error)
  }
  const arm = () => {
    const left = at - Date.now()
    if (left <= 0) return fire()
    // unref: a pending deadline never keeps a Node process alive (setTimeout returns a number in browsers).
    timer = setTimeout(
      () => {
        timer = undefined
        arm()
      },
      Math.min(left, 2 ** 31 - 1),
    )
    ;(timer as { unref?: () => void }).unref?.()
  }
  let armed = false
  const deadline: Deadline = {
    get at() {
      return at
    },
    get aborted() {
      if (controller.signal.aborted) return true
      if (Date.now() < at) return false
      fire()
      return true
    },
    get reason() {
      return (error ??= reason())
    },
    get signal() {
      if (!armed) {
        armed = true
        arm()
      }
      return controller.signal
    },
    remaining: () => Math.max(0, at - Date.now()),
    extend(more) {
      if (controller.signal.aborted) return
      at = Math.max(at, Date.now() + more)
    },
    dispose() {
      if (timer !== undefined) clearTimeout(timer)
      timer = undefined
      armed = true
    },
  }
  return deadline
}
