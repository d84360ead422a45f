// The compute-heavy call the engine benches share: a loop of ≈ 335k steps reading 82 storage slots.

const hex = (n: number, bytes: number) => n.toString(16).padStart(bytes * 2, '0')
const ITERATIONS = 25_800
/** n down to 0: SLOAD(n mod 82), 13 ops an iteration. */
export const HEAVY_RUNTIME = `62${hex(ITERATIONS, 3)}5b80605290065450600190038060045700`
/** Init code that deploys `code` as it is. */
export const withInit = (code: string) => `0x61${hex(code.length / 2, 2)}80600c6000396000f3${code}`
/** The median of some timings. */
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
