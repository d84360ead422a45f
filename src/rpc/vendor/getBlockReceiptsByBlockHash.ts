import { ServerRpcError } from '../../errors/rpc.js'
import { defineMethod } from '../defineMethod.js'
import { required } from '../params.js'
import { parseHash } from '../parsers.js'
import { headerByHash, verifiedBlockReceipts } from './blockReceipts.js'

/**
 * erigon_getBlockReceiptsByBlockHash(hash): the receipts of a canonical block (eth's shape), checked
 * against its receiptsRoot. Canonical means the block the upstream gives for its number is this one
 * (the reference's `the hash … is not cannonical`, its spelling kept); a hash the upstream does not
 * know is its `block not found <hex>`.
 */
export const getBlockReceiptsByBlockHash = defineMethod({
  name: 'erigon_getBlockReceiptsByBlockHash',
  params: [required(parseHash)],
  async run(engine, [hash]) {
    const header = await headerByHash(engine, hash)
    if (!header) throw new ServerRpcError(`block not found ${hash.slice(2)}`)
    const canonical = await engine.headers.resolve({ kind: 'number', number: header.number })
    if (canonical.hash !== header.hash) throw new ServerRpcError(`the hash ${hash} is not cannonical`)
    return verifiedBlockReceipts(engine, header)
  },
})
