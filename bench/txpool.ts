// Part of `npm run bench`: the transaction pool's classification. A pool of 10,000 transactions from
// 1,000 senders (10 nonces each, some with gaps, some under the base fee, some beyond their funds),
// sorted on state proven at the head of a real anvil: the senders' nonces and balances are proven in
// batches (eth_getProof), then the reference's rules run. Cold (a new head: every sender proven
// again), and the same head again (proofs cached). Round trips are sequential upstream waits.
// Then the KZG check of a blob sidecar, per blob.
import { hexToBytes } from '@ethereumjs/util'
import { verifyBlobKzgProof } from '../src/chain/verifyBlobKzgProof.js'
import { verifyBlobCellProofs } from '../src/chain/verifyCellKzgProofBatch.js'
import { startAnvil } from '../src/node/devnet/startAnvil.js'
import { startEdgetrace } from '../src/node/startEdgetrace.js'
import { poolEnvironment } from '../src/exec/txpool/poolEnvironment.js'
import type { PoolTransaction } from '../src/exec/txpool/poolTransaction.js'
import type { Hex } from '../src/types/hex.js'
import { readKzgCase } from '../test/src/kzgVectors.js'
import { rpcResult } from '../test/src/rpc.js'

const SENDERS = 1_000
const PER_SENDER = 10
const GWEI = 1_000_000_000n

async function main() {
  const anvil = await startAnvil()
  const senders = Array.from({ length: SENDERS }, (_, i) => `0x${(0x1000 + i).toString(16).padStart(40, '0')}` as Hex)
  // Funds for about 7 of each sender's 10 transactions (21,000 gas at 100 gwei each).
  const funds = 7n * 21_000n * 100n * GWEI
  for (let i = 0; i < senders.length; i += 100)
    await Promise.all(
      senders.slice(i, i + 100).map((s) => rpcResult(anvil.url, 'anvil_setBalance', [s, `0x${funds.toString(16)}`])),
    )
  await rpcResult(anvil.url, 'evm_mine', [])
  const server = await startEdgetrace({ upstream: anvil.url, port: 0, hardfork: 'prague', api: ['eth', 'txpool'] })
  const engine = server.engine
  let n = 0
  for (const [s, sender] of senders.entries())
    for (let nonce = 0; nonce < PER_SENDER; nonce++) {
      // Every tenth sender skips nonce 5 (a gap); every seventh pays a cap under any base fee.
      if (s % 10 === 0 && nonce === 5) continue
      const feeCap = s % 7 === 0 ? 1n : 100n * GWEI
      engine.txpool.add({
        tx: {} as never,
        hash: `0x${(++n).toString(16).padStart(64, '0')}` as Hex,
        sender,
        nonce: BigInt(nonce),
        gas: 21_000n,
        feeCap,
        tip: 1n,
        blobFeeCap: 0n,
        blobGas: 0n,
        maxCost: 21_000n * feeCap + 1n,
        local: true,
        addedAt: n,
        authorities: [],
      } satisfies PoolTransaction)
    }
  engine.upstreamPool.offered = false // the pool above is the whole pool

  const run = async () => {
    engine.upstream.resetStats()
    const started = performance.now()
    const head = await engine.headers.resolve({ kind: 'tag', tag: 'latest' })
    const env = await poolEnvironment(engine, head, engine.txpool.senders())
    const proven = performance.now()
    const out = engine.txpool.classify(env)
    const done = performance.now()
    const count = (pool: 'pending' | 'baseFee' | 'queued') => [...out[pool].values()].reduce((k, l) => k + l.length, 0)
    return {
      stats: engine.upstream.stats(),
      proveMs: proven - started,
      classifyMs: done - proven,
      split: `${count('pending')} / ${count('baseFee')} / ${count('queued')}`,
    }
  }
  const cold = await run()
  const warm = await run()
  await rpcResult(anvil.url, 'evm_mine', [])
  const next = await run()
  console.log(`\nedgetrace txpool — ${engine.txpool.size()} transactions from ${SENDERS} senders, sorted at the head\n`)
  console.log('| run | round trips | requests / calls | proofs and head, ms | rules, ms | pending / baseFee / queued |')
  console.log('|---|---:|---|---:|---:|---|')
  for (const [label, r] of [
    ['first time (every sender proven)', cold],
    ['same head again (proofs cached)', warm],
    ['after a new head (every sender proven again)', next],
  ] as const)
    console.log(
      `| ${label} | ${r.stats.roundTrips} | ${r.stats.requests} / ${r.stats.calls} | ${Math.round(r.proveMs)} | ${Math.round(r.classifyMs)} | ${r.split} |`,
    )
  await server.close()
  await anvil.stop()
  kzgTable()
}

/**
 * The blob-sidecar check eth_sendRawTransaction makes before forwarding: one blob's KZG proof
 * (before Osaka) and its 128 cell proofs (from Osaka on), on the consensus-spec vectors, median of 5
 * after a first run (which pays for the roots of unity and the setup points).
 */
function kzgTable() {
  const bytes = (hex: string) => hexToBytes(hex as `0x${string}`)
  const v0 = readKzgCase('verify_blob_kzg_proof/kzg-mainnet/verify_blob_kzg_proof_case_correct_proof_3')
    .input as Record<string, string>
  const cells = readKzgCase('compute_cells_and_kzg_proofs/kzg-mainnet/compute_cells_and_kzg_proofs_case_valid_3')
  const commitment = readKzgCase('blob_to_kzg_commitment/kzg-mainnet/blob_to_kzg_commitment_case_valid_blob_3')
  const proofs = (cells.output as string[][])[1]!.map(bytes)
  const median = (fn: () => boolean) => {
    const first = performance.now()
    if (!fn()) throw new Error('a reference vector did not verify')
    const firstMs = performance.now() - first
    const times: number[] = []
    for (let i = 0; i < 5; i++) {
      const t = performance.now()
      fn()
      times.push(performance.now() - t)
    }
    return { firstMs, medianMs: times.sort((a, b) => a - b)[2]! }
  }
  const rows = [
    [
      'blob proof (version 0, before Osaka)',
      median(() => verifyBlobKzgProof(bytes(v0.blob!), bytes(v0.commitment!), bytes(v0.proof!))),
    ],
    [
      '128 cell proofs (version 1, Osaka)',
      median(() =>
        verifyBlobCellProofs([bytes(cells.input.blob as string)], [bytes(commitment.output as string)], proofs),
      ),
    ],
  ] as const
  console.log('\nedgetrace txpool — a blob sidecar’s KZG check, per blob\n')
  console.log('| check | first run, ms | median, ms |')
  console.log('|---|---:|---:|')
  for (const [label, r] of rows) console.log(`| ${label} | ${Math.round(r.firstMs)} | ${Math.round(r.medianMs)} |`)
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
