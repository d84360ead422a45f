/**
 * A fetch answer's body as text, read no further than `maxBytes`: a body declared larger
 * (Content-Length) is not read, and one that grows past the bound as it arrives is cancelled there
 * (a lying Content-Length is no help). Past the bound it throws `tooLarge(declared)`, with the
 * declared length when that was what refused it.
 */
export async function readBoundedText(
  res: Response,
  maxBytes: number,
  tooLarge: (declared: number | undefined) => Error,
): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? Number.NaN)
  if (declared > maxBytes) {
    await res.body?.cancel()
    throw tooLarge(declared)
  }
  if (!res.body) return ''
  const reader = res.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.length
    if (size > maxBytes) {
      await reader.cancel()
      throw tooLarge(undefined)
    }
    chunks.push(value)
  }
  const all = new Uint8Array(size)
  let at = 0
  for (const c of chunks) {
    all.set(c, at)
    at += c.length
  }
  return new TextDecoder().decode(all)
}
