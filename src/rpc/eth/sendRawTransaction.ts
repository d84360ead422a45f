import { TxPoolError } from '../../errors/txpool.js'
import { checkTransaction, decodeRawTransaction } from '../../exec/txpool/checkTransaction.js'
import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseData } from '../parsers.js'

/**
 * eth_sendRawTransaction(data): checked here first — decoded, its signature, chain id, gas,
 * fees, nonce and funds against state proven at the head (checkTransaction, geth's words) — and
 * only then forwarded to the upstream; one that fails is not forwarded. Kept in the local pool as
 * this daemon's own (a replacement must pay 10% more). Returns its hash, computed here.
 */
export const sendRawTransaction = defineMethod({
  name: 'eth_sendRawTransaction',
  params: [required(parseData)],
  async run(engine, [raw]) {
    const head = await engine.headers.resolve({ kind: 'tag', tag: 'latest' })
    const decoded = decodeRawTransaction(engine, head, raw)
    const pooled = await checkTransaction(engine, head, decoded, true)
    if (engine.txpool.get(pooled.hash)) throw new TxPoolError('already known')
    const replaced = engine.txpool.add(pooled)
    try {
      const hash = await engine.upstream.request<string>('eth_sendRawTransaction', [raw])
      if (typeof hash === 'string' && hash.toLowerCase() !== pooled.hash)
        throw new TxPoolError(`the upstream took the transaction as ${hash}, but it hashes to ${pooled.hash}`)
    } catch (err) {
      engine.txpool.remove(pooled.hash)
      if (replaced) engine.txpool.add(replaced)
      throw err
    }
    return pooled.hash
  },
})
