#!/usr/bin/env node
// The `edgetrace` command: runs the compiled CLI (npm run build writes dist/; npm install runs it).
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const cli = fileURLToPath(new URL('../dist/node/cli.js', import.meta.url))
if (!existsSync(cli)) {
  console.error('edgetrace: dist/ is missing — run `npm run build` first')
  process.exit(1)
}
await import(cli)
