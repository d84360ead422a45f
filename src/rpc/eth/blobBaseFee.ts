import { quantity } from '../../utils/hex.js'
import { defineMethod } from '../defineMethod.js'

/**
 * eth_blobBaseFee(): the blob base fee of the latest verified header (geth's CalcBlobFee of its
 * excess blob gas under its rules); before EIP-4844, null as geth answers.
 */
export const blobBaseFee = defineMethod({
  name: 'eth_blobBaseFee',
  params: [],
  async run(engine) {
    const latest = await engine.headers.resolve({ kind: 'tag', tag: 'latest' })
    return latest.header.excessBlobGas === undefined ? null : quantity(latest.header.getBlobGasPrice())
  },
})
