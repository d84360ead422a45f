#!/usr/bin/env node
// The `edgetrace` command: runs the compiled CLI (npm run build writes dist/; npm install runs it).
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

// The one-file bundle of the CLI where the build made one (it starts quicker), else tsc's per-file script.
const bundle = fileURLToPath(new URL('../dist/node/cli.bundle.js', import.meta.url))
const cli = existsSync(bundle) ? bundle : fileURLToPath(new URL('../dist/node/cli.js', import.meta.url))
if (!existsSync(cli)) {
  console.error('edgetrace: dist/ is missing — run `npm run build` first')
  process.exit(1)
}
await import(cli)
