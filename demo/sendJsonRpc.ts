/** Example params for the methods the console offers (the devnet's Token at its first address). */
export const EXAMPLES: Record<string, unknown[]> = {
  eth_call: [{ to: '0x5fbdb2315678afecb367f032d93f642f64180aa3', data: '0x18160ddd' }, 'latest'],
  eth_estimateGas: [
    {
      from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
      to: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
      data: '0xa9059cbb00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c80000000000000000000000000000000000000000000000000000000000000001',
    },
  ],
  eth_createAccessList: [
    {
      from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
      to: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
      data: '0x70a08231000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266',
    },
  ],
  eth_blockNumber: [],
  web3_clientVersion: [],
  debug_traceCall: [
    {
      from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
      to: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
      data: '0xa9059cbb00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c80000000000000000000000000000000000000000000000000000000000000001',
    },
    'latest',
    { tracer: 'callTracer', tracerConfig: { withLog: true } },
  ],
  trace_block: ['latest'],
}

/** Where a request goes: an edgetrace server's URL, or a function that answers a JSON-RPC message (the in-browser worker). */
export type Target = string | ((message: unknown) => Promise<unknown>)

export type SendOutcome = { ok: boolean; summary: string; text: string }

/** Sends one JSON-RPC request; never throws — every failure comes back as text to show. */
export async function sendJsonRpc(target: Target, method: string, paramsText: string): Promise<SendOutcome> {
  let params: unknown
  try {
    params = JSON.parse(paramsText || '[]')
  } catch (err) {
    return { ok: false, summary: 'params are not JSON', text: String(err) }
  }
  const started = performance.now()
  try {
    const message = { jsonrpc: '2.0', id: 1, method, params }
    const body = (
      typeof target === 'string'
        ? await (
            await fetch(target, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(message),
            })
          ).json()
        : await target(message)
    ) as { result?: unknown; error?: unknown }
    const ms = Math.round(performance.now() - started)
    if (body.error !== undefined)
      return { ok: false, summary: `error in ${ms} ms`, text: JSON.stringify(body.error, null, 2) }
    return { ok: true, summary: `answered in ${ms} ms`, text: JSON.stringify(body.result, null, 2) }
  } catch (err) {
    return { ok: false, summary: 'request failed (is edgetrace running, with --http.corsdomain?)', text: String(err) }
  }
}
