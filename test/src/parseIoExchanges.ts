/** One request of an execution-apis `.io` file and the answer geth recorded for it. */
export type Exchange = { request: string; response: string }

/** The `>> request` / `<< response` pairs of an execution-apis `.io` file, in order. */
export function parseIoExchanges(text: string): Exchange[] {
  const out: Exchange[] = []
  let request: string | undefined
  for (const line of text.split('\n')) {
    if (line.startsWith('>> ')) request = line.slice(3)
    else if (line.startsWith('<< ') && request !== undefined) {
      out.push({ request, response: line.slice(3) })
      request = undefined
    }
  }
  return out
}
