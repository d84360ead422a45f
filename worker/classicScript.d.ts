/**
 * The types of `edgetrace/worker` and `edgetrace/service-worker`: each is a classic script
 * (dist/browser/edgetrace.worker.js, edgetrace.sw.js, one IIFE file) to serve from your origin and
 * start by URL — `new Worker(url)`, `navigator.serviceWorker.register(url)` — never to import. It
 * exports nothing; a bundler's `?url` import (Vite: `import url from 'edgetrace/worker?url'`) gives
 * its URL.
 */
export {}
