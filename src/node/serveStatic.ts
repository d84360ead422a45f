import { readFile, stat } from 'node:fs/promises'
import type { ServerResponse } from 'node:http'
import type { Http2ServerResponse } from 'node:http2'
import { extname, resolve, sep } from 'node:path'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
}

/**
 * Answers a GET for a file under `dir` (the explorer's build): `/` is index.html; anything outside
 * the directory, hidden or missing is 404. Hashed assets (Vite's `assets/`) are cached for a year,
 * the page itself never. Returns false when the path names no file (the caller answers).
 */
export async function serveStatic(
  dir: string,
  urlPath: string,
  res: Pick<ServerResponse, 'writeHead' | 'end'> | Http2ServerResponse,
  head = false,
): Promise<boolean> {
  let path: string
  try {
    path = decodeURIComponent(urlPath.split('?')[0]!)
  } catch {
    return false
  }
  if (path === '/' || path === '') path = '/index.html'
  if (path.split('/').some((part) => part.startsWith('.'))) return false
  const root = resolve(dir)
  const file = resolve(root, `.${path}`)
  if (!file.startsWith(root + sep)) return false
  const info = await stat(file).catch(() => undefined)
  if (!info?.isFile()) return false
  const body = await readFile(file)
  res.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': body.length,
    'x-content-type-options': 'nosniff',
    'cache-control': path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    // The in-browser mode's worker and the page fetch only from their own origin and the node the user names.
    'referrer-policy': 'no-referrer',
  })
  if (head) res.end()
  else res.end(body)
  return true
}
