import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { DEV_ACCOUNT, rpcResult, waitForReceipt } from './src/rpc.js'

// GraphQL (the execution-apis schema) on /graphql, against anvil: blocks, transactions, receipts,
// logs, account state and calls — each answer equal to the JSON-RPC answer for the same data.

let anvil: AnvilInstance
let edge: RunningEdgetrace
const TOPIC = `0x${'ab'.repeat(32)}`
/** Init code: LOG1(TOPIC) over 32 bytes (42), then deploys runtime code that returns 7 for any call. */
const RUNTIME = '600760005260206000f3' // PUSH1 7 PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN
const INIT = `0x602a6000527f${TOPIC.slice(2)}60206000a1600a6037600039600a6000f3${RUNTIME}`
let deployed: { blockNumber: string; contractAddress: string; transactionHash: string; blockHash: string }

async function gql(query: string, variables?: Record<string, unknown>) {
  const res = await fetch(`${edge.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  })
  return { status: res.status, body: (await res.json()) as { data?: any; errors?: { message: string }[] } }
}

beforeAll(async () => {
  anvil = await startAnvil()
  await rpcResult(anvil.url, 'evm_mine', [])
  const hash = await rpcResult(anvil.url, 'eth_sendTransaction', [{ from: DEV_ACCOUNT, data: INIT, gas: '0x40000' }])
  deployed = await waitForReceipt(anvil.url, hash)
  await rpcResult(anvil.url, 'evm_mine', [])
  edge = await startEdgetrace({ upstream: anvil.url, port: 0, hardfork: 'prague', api: ['eth'], graphql: true })
}, 60_000)

afterAll(async () => {
  await edge?.close()
  await anvil?.stop()
})

describe('GraphQL on /graphql', () => {
  it('a block, its transactions, receipts and logs: the JSON-RPC answers for the same data', async () => {
    const { status, body } = await gql(`{
      block(number: ${Number(deployed.blockNumber)}) {
        number hash parent { hash } nonce transactionsRoot transactionCount stateRoot receiptsRoot
        miner { address } extraData gasLimit gasUsed baseFeePerGas nextBaseFeePerGas timestamp
        logsBloom mixHash difficulty ommerCount ommerHash withdrawalsRoot blobGasUsed excessBlobGas
        transactions {
          hash nonce index from { address } to { address } value gasPrice maxFeePerGas
          maxPriorityFeePerGas gas inputData status gasUsed cumulativeGasUsed effectiveGasPrice
          createdContract { address } r s v type
          logs { index topics data account { address } transaction { hash } }
        }
      }
    }`)
    expect(body.errors).toBeUndefined()
    expect(status).toBe(200)
    const block = body.data.block
    const json = await rpcResult(edge.url, 'eth_getBlockByNumber', [deployed.blockNumber, true])
    const receipt = await rpcResult(edge.url, 'eth_getTransactionReceipt', [deployed.transactionHash])
    const parent = await rpcResult(edge.url, 'eth_getBlockByHash', [json.parentHash, false])
    expect(block).toMatchObject({
      number: json.number,
      hash: json.hash,
      parent: { hash: parent.hash },
      nonce: json.nonce,
      transactionsRoot: json.transactionsRoot,
      transactionCount: '0x1',
      stateRoot: json.stateRoot,
      receiptsRoot: json.receiptsRoot,
      miner: { address: json.miner },
      gasLimit: json.gasLimit,
      gasUsed: json.gasUsed,
      baseFeePerGas: json.baseFeePerGas,
      timestamp: json.timestamp,
      logsBloom: json.logsBloom,
      mixHash: json.mixHash,
      difficulty: json.difficulty,
      ommerCount: '0x0',
      ommerHash: json.sha3Uncles,
      withdrawalsRoot: json.withdrawalsRoot,
    })
    // The next block's base fee, computed from this one: what anvil's next block has.
    const next = await rpcResult(anvil.url, 'eth_getBlockByNumber', [
      `0x${(BigInt(json.number) + 1n).toString(16)}`,
      false,
    ])
    expect(block.nextBaseFeePerGas).toBe(next.baseFeePerGas)
    const [tx] = block.transactions
    const txJson = json.transactions[0]
    expect(tx).toMatchObject({
      hash: txJson.hash,
      nonce: txJson.nonce,
      index: '0x0',
      from: { address: txJson.from },
      to: null,
      value: txJson.value,
      gas: txJson.gas,
      inputData: txJson.input,
      status: receipt.status,
      gasUsed: receipt.gasUsed,
      cumulativeGasUsed: receipt.cumulativeGasUsed,
      effectiveGasPrice: receipt.effectiveGasPrice,
      createdContract: { address: receipt.contractAddress },
      r: txJson.r,
      s: txJson.s,
      type: txJson.type,
    })
    expect(tx.logs).toEqual(
      receipt.logs.map((log: Record<string, unknown>) => ({
        index: log.logIndex,
        topics: log.topics,
        data: log.data,
        account: { address: log.address },
        transaction: { hash: deployed.transactionHash },
      })),
    )
  })

  it('account state, a call and a gas estimate at a block, and logs by filter, as eth_* answer them', async () => {
    const at = Number(deployed.blockNumber)
    const address = deployed.contractAddress
    const { body } = await gql(
      `query($a: Address!) {
      block(number: ${at}) {
        account(address: $a) { address balance transactionCount code storage(slot: "0x${'0'.repeat(64)}") }
        dev: account(address: "${DEV_ACCOUNT}") { balance transactionCount }
        call(data: { to: $a, data: "0x12345678" }) { data status gasUsed }
        estimateGas(data: { to: $a, data: "0x12345678" })
      }
      logs(filter: { fromBlock: ${at}, toBlock: ${at}, topics: [["${TOPIC}"]] }) { index account { address } topics data }
      chainID
    }`,
      { a: address },
    )
    expect(body.errors).toBeUndefined()
    const tag = deployed.blockNumber
    expect(body.data.block.account).toEqual({
      address,
      balance: await rpcResult(edge.url, 'eth_getBalance', [address, tag]),
      transactionCount: await rpcResult(edge.url, 'eth_getTransactionCount', [address, tag]),
      code: await rpcResult(edge.url, 'eth_getCode', [address, tag]),
      storage: await rpcResult(edge.url, 'eth_getStorageAt', [address, '0x0', tag]),
    })
    expect(body.data.block.account.code).toBe(`0x${RUNTIME}`)
    expect(body.data.block.dev.balance).toBe(await rpcResult(anvil.url, 'eth_getBalance', [DEV_ACCOUNT, tag]))
    expect(body.data.block.call).toMatchObject({
      data: await rpcResult(anvil.url, 'eth_call', [{ to: address, data: '0x12345678' }, tag]),
      status: '0x1',
    })
    expect(body.data.block.estimateGas).toBe(
      await rpcResult(edge.url, 'eth_estimateGas', [{ to: address, data: '0x12345678' }, tag]),
    )
    const logs = await rpcResult(edge.url, 'eth_getLogs', [{ fromBlock: tag, toBlock: tag, topics: [TOPIC] }])
    expect(body.data.logs).toEqual(
      logs.map((l: Record<string, unknown>) => ({
        index: l.logIndex,
        account: { address: l.address },
        topics: l.topics,
        data: l.data,
      })),
    )
    expect(body.data.chainID).toBe('0x7a69')
  })

  it('GET with a query string; blocks(from, to); an error as GraphQL words it, with 400', async () => {
    const head = Number(await rpcResult(anvil.url, 'eth_blockNumber', []))
    const res = await fetch(
      `${edge.url}/graphql?query=${encodeURIComponent(`{ blocks(from: ${head - 1}) { number } }`)}`,
    )
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      data: { blocks: [{ number: `0x${(head - 1).toString(16)}` }, { number: `0x${head.toString(16)}` }] },
    })
    const wrong = await gql(`{ blocks(from: ${head}, to: ${head - 1}) { number } }`)
    expect(wrong.status).toBe(400)
    expect(wrong.body.errors![0]!.message).toBe(`to (${head - 1}) is before from (${head})`)
    const unknown = await gql('{ block { nonsense } }')
    expect(unknown.status).toBe(400)
    expect(unknown.body.errors![0]!.message).toMatch(/Cannot query field "nonsense" on type "Block"/)
  })

  it('resolves sibling fields together: an account’s four fields at a new block in the round trips one of them takes', async () => {
    await rpcResult(anvil.url, 'evm_mine', [])
    const head = await rpcResult(anvil.url, 'eth_getBlockByNumber', ['latest', false])
    const at = Number(head.number)
    await gql(`{ block(number: ${at}) { hash } }`) // the block itself, known
    const account = (fields: string) =>
      gql(`{ block(number: ${at}) { account(address: "${deployed.contractAddress}") { ${fields} } } }`)
    edge.upstream.resetStats()
    const all = await account(`balance transactionCount code storage(slot: "0x${'0'.repeat(63)}1")`)
    expect(all.body.errors).toBeUndefined()
    const together = edge.upstream.stats().roundTrips
    // The code alone at the next block costs as many sequential round trips (its proof, then its code).
    await rpcResult(anvil.url, 'evm_mine', [])
    const next = Number(await rpcResult(anvil.url, 'eth_blockNumber', []))
    await gql(`{ block(number: ${next}) { hash } }`)
    edge.upstream.resetStats()
    await gql(`{ block(number: ${next}) { account(address: "${deployed.contractAddress}") { code } } }`)
    const alone = edge.upstream.stats().roundTrips
    expect(together).toBe(alone)
  })
})
