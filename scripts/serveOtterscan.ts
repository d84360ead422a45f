import { readFile, stat } from 'node:fs/promises'
import { type Server, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, sep } from 'node:path'

export type ServedOtterscan = {
  /** The page origin, e.g. http://127.0.0.1:41234 (the node must allow it as a CORS origin). */
  origin: string
  /** Sets the node URL and options Otterscan reads from /config.json on its next page load. */
  configure(config: Record<string, unknown>): void
  close(): Promise<void>
}

/** A path prefix always answered 404: a URL Otterscan may fetch that has nothing behind it. */
export const OFFLINE = '/offline/'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
}

/**
 * A static server on loopback for an Otterscan build (the output directory of its `vite build`):
 * files as they are, /config.json answered from `configure` (Otterscan fetches it at start for the
 * node URL), and index.html for any other path, since Otterscan routes in the browser
 * (createBrowserRouter: /block/N, /tx/HASH/trace, /address/ADDR are client-side routes).
 */
export async function serveOtterscan(dist: string): Promise<ServedOtterscan> {
  const root = normalize(dist)
  let config: Record<string, unknown> = {}
  const index = await readFile(join(root, 'index.html'))

  const server: Server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
    if (path === '/config.json') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      res.end(JSON.stringify(config))
      return
    }
    const file = normalize(join(root, path))
    // A path that climbs out of the build (../) is not served, whatever it names.
    if (file.startsWith(root + sep)) {
      const found = await stat(file).catch(() => undefined)
      if (found?.isFile()) {
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
        res.end(await readFile(file))
        return
      }
    }
    // Missing files are 404s (Otterscan then does without them), as is everything under /offline/
    // (where the check points Otterscan's asset and Sourcify URLs); every other path is a route.
    if (path.startsWith('/assets/') || path.startsWith(OFFLINE) || extname(path) !== '') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n')
      return
    }
    res.writeHead(200, { 'content-type': TYPES['.html']! }).end(index)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    configure: (next) => {
      config = next
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
