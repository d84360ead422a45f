/** A JSON-RPC call over HTTP; returns the whole response object (result or error). */
export async function rpc(url: string, method: string, params: unknown[] = []): Promise<{ result?: any; error?: any }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return res.json() as Promise<{ result?: any; error?: any }>
}

/** A request body sent as it is (a recorded exchange's `>>` line); the parsed answer. */
export async function postJsonText(url: string, body: string): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  return JSON.parse(await res.text())
}

/** The result of a call, or a thrown error with the JSON-RPC error. */
export async function rpcResult(url: string, method: string, params: unknown[] = []): Promise<any> {
  const out = await rpc(url, method, params)
  if (out.error) throw new Error(`${method}: ${JSON.stringify(out.error)}`)
  return out.result
}

export const DEV_ACCOUNT = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'

/** Sends a transaction through the node's own accounts and waits for its receipt, which must say success. */
export async function sendMined(url: string, tx: Record<string, unknown>) {
  const hash = await rpcResult(url, 'eth_sendTransaction', [tx])
  const receipt = await waitForReceipt(url, hash, 200)
  if (receipt.status !== '0x1') throw new Error(`transaction ${hash} failed: status ${receipt.status}`)
  return receipt
}

/** Deploys init code from anvil's first dev account and returns the contract address. */
export async function deploy(url: string, initCode: string): Promise<`0x${string}`> {
  const hash = await rpcResult(url, 'eth_sendTransaction', [{ from: DEV_ACCOUNT, data: initCode }])
  const receipt = await waitForReceipt(url, hash)
  if (receipt.status !== '0x1') throw new Error('deployment failed')
  return receipt.contractAddress
}

/**
 * Init code that stores `value` at slot 0 and deploys a runtime that returns slot 0
 * (PUSH1 0 SLOAD PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN).
 */
export function storageContractInitCode(value: number): string {
  const runtime = '60005460005260206000f3'
  const store = `60${value.toString(16).padStart(2, '0')}600055`
  const copy = `600b601160003960` + '0b6000f3'
  return `0x${store}${copy}${runtime}`
}

/** The receipt of a transaction, waiting (briefly: `tries` polls 20 ms apart) for it to be mined. */
export async function waitForReceipt(url: string, hash: string, tries = 100): Promise<any> {
  for (let i = 0; i < tries; i++) {
    const receipt = await rpcResult(url, 'eth_getTransactionReceipt', [hash])
    if (receipt) return receipt
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`transaction ${hash} was not mined`)
}
