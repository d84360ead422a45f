import type { CompiledWasmModule } from '../wasm/createWasmEngine.js'

/**
 * Where the wasm EVM is fetched from by default: `edgetrace-evm.wasm` beside the script running
 * (the built worker's dist/browser/edgetrace.worker.js has it beside it; `npm run build` copies it).
 */
export function defaultWasmEvmUrl(): string {
  return new URL('edgetrace-evm.wasm', (globalThis as { location?: { href: string } }).location?.href).href
}

/**
 * The wasm EVM's module, fetched when the first `engine: 'wasm'` run needs it (lazily: the worker's
 * JavaScript does not carry it) and compiled as it streams in; the browser's HTTP cache keeps it.
 * A server that labels it other than application/wasm still works (compiled from its bytes).
 */
export async function fetchWasmEvmModule(url: string): Promise<CompiledWasmModule> {
  const response = await fetch(url)
  if (!response.ok) throw new Error(`the wasm EVM at ${url}: HTTP ${response.status}`)
  if (response.headers.get('content-type')?.split(';')[0]?.trim() === 'application/wasm')
    return WebAssembly.compileStreaming(response)
  return WebAssembly.compile(await response.arrayBuffer())
}
