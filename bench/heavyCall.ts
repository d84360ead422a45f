// The compute-heavy call the engine benches share: a loop of ≈ 335k steps reading 82 storage slots.

const hex = (n: number, bytes: number) => n.toString(16).padStart(bytes * 2, '0')
const ITERATIONS = 25_800
/** n down to 0: SLOAD(n mod 82), 13 ops an iteration. */
export const HEAVY_RUNTIME = `62${hex(ITERATIONS, 3)}5b80605290065450600190038060045700`
/** Init code that deploys `code` as it is. */
export const withInit = (code: string) => `0x61${hex(code.length / 2, 2)}80600c6000396000f3${code}`
/** The median of some timings. */
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/**
 * Times `cases` in `rounds` interleaved rounds (each round runs every case once, in order) and
 * prints their medians as a table: ms, M steps/s for a call of `steps` steps, and each over the first.
 */
export async function printInterleavedMedians({
  title,
  baseLabel,
  steps,
  rounds,
  cases,
}: {
  title: string
  /** The table's heading for the ratio over the first case ("untraced", "plain EVM"). */
  baseLabel: string
  steps: number
  rounds: number
  cases: readonly (readonly [string, () => Promise<unknown>])[]
}) {
  const samples = cases.map(() => [] as number[])
  for (let round = 0; round < rounds; round++)
    for (const [i, [, run]] of cases.entries()) {
      const t = performance.now()
      await run()
      samples[i]!.push(performance.now() - t)
    }
  const base = median(samples[0]!)
  console.log(`\n${title}\n`)
  console.log(`| run | ms | M steps/s | × ${baseLabel} |`)
  console.log('|---|---:|---:|---:|')
  for (const [i, [name]] of cases.entries()) {
    const ms = median(samples[i]!)
    console.log(`| ${name} | ${ms.toFixed(0)} | ${(steps / ms / 1000).toFixed(2)} | ${(ms / base).toFixed(2)} |`)
  }
}
