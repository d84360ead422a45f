import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { Plugin } from 'vite'

/**
 * Where the browser tests' global setup builds the edgetrace worker and service worker bundles
 * (under node_modules/.cache: neither git nor `npm pack` sees them).
 */
export const TEST_BUNDLE_DIR = resolve(import.meta.dirname, '../../node_modules/.cache/edgetrace-browser-tests')

/** The path the bundles are served at, on the tests' own origin (Vite's server). */
export const TEST_BUNDLE_PATH = '/@edgetrace-test-bundles/'

const TYPES: Record<string, string> = { js: 'text/javascript', wasm: 'application/wasm' }

/**
 * A Vite plugin for the browser tests' server: the files of TEST_BUNDLE_DIR at TEST_BUNDLE_PATH, as
 * they are (a static server would send them so). Vite's own middleware would transform each script
 * and inline a source map into it (a 1 MB worker served as 5.6 MB, for every worker started).
 */
export function serveTestBundles(): Plugin {
  return {
    name: 'edgetrace:serve-test-bundles',
    configureServer(server) {
      server.middlewares.use(async (req, res, next) => {
        const path = req.url?.split('?')[0]
        if (!path?.startsWith(TEST_BUNDLE_PATH)) return next()
        const name = path.slice(TEST_BUNDLE_PATH.length)
        const type = TYPES[name.split('.').pop() ?? '']
        if (!/^[\w.-]+$/.test(name) || type === undefined) return next()
        try {
          const body = await readFile(resolve(TEST_BUNDLE_DIR, name))
          res.writeHead(200, {
            'content-type': type,
            'content-length': body.length,
            'cache-control': 'no-cache',
            // The service worker's script controls the whole origin (scope "/").
            'service-worker-allowed': '/',
          })
          res.end(body)
        } catch {
          res.writeHead(404).end()
        }
      })
    },
  }
}
