/**
 * Whether the upstream answers. After it proved unreachable (retries exhausted), calls fail at once
 * for `cooldownMs` instead of paying the retries again; `onReachability` hears each change.
 */
export function createReachability({
  cooldownMs,
  onReachability,
}: {
  cooldownMs: number
  onReachability?: ((reachable: boolean, reason?: string) => void) | undefined
}) {
  let reachable = true
  let unreachableUntil = 0
  let lastFailure = ''

  return {
    markReachable(): void {
      if (reachable) return
      reachable = true
      unreachableUntil = 0
      onReachability?.(true)
    },
    markUnreachable(reason: string): void {
      lastFailure = reason
      unreachableUntil = Date.now() + cooldownMs
      if (!reachable) return
      reachable = false
      onReachability?.(false, reason)
    },
    /** Why a call must fail at once (the cooldown runs); undefined when it may be asked. */
    refusal(): string | undefined {
      if (reachable || Date.now() >= unreachableUntil) return undefined
      return `${lastFailure}; not asked again for ${Math.ceil((unreachableUntil - Date.now()) / 1000)} s`
    },
  }
}
