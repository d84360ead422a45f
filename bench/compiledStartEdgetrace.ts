import type { startEdgetrace as StartEdgetrace } from '../src/node/startEdgetrace.js'

/**
 * edgetrace as `npx edgetrace` runs it: the compiled build (dist/, which npm install builds), not
 * the sources through tsx, whose transform adds a helper call per closure that would be measured too.
 */
export async function compiledStartEdgetrace(): Promise<typeof StartEdgetrace> {
  const url = new URL('../dist/node/startEdgetrace.js', import.meta.url)
  try {
    return ((await import(url.href)) as { startEdgetrace: typeof StartEdgetrace }).startEdgetrace
  } catch {
    throw new Error('the bench measures the compiled build: run `npm run build` first')
  }
}
