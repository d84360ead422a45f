import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { type Proxy, createProxy } from './src/createProxy.js'
import { rpc } from './src/rpc.js'

// The upstream's URL as clients may see it (erigon_nodeInfo, served by default, and the upstream's
// own errors passed on): its scheme, host and port, never a credential — in user info, a path
// token, or a query parameter of any name.

let anvil: AnvilInstance
let proxy: Proxy
let edge: RunningEdgetrace
let origin: string
const SECRETS = ['S3CRETuser', 'S3CRETpass', 'S3CRETpath', 'S3CRETx', 'S3CRETaccess', 'S3CRETclient', 'S3CRETjwt']

beforeAll(async () => {
  anvil = await startAnvil()
  proxy = await createProxy(anvil.url)
  origin = proxy.url.replace(/\/$/, '')
  const host = origin.replace(/^http:\/\//, '')
  const upstream =
    `http://S3CRETuser:S3CRETpass@${host}/k7/S3CRETpath?x-api-key=S3CRETx&access_key=S3CRETaccess` +
    '&client_secret=S3CRETclient&jwt=S3CRETjwt'
  edge = await startEdgetrace({ upstream, port: 0, hardfork: 'prague', api: ['eth', 'vendor', 'web3'] })
}, 60_000)

afterAll(async () => {
  await edge?.close()
  await proxy?.stop()
  await anvil?.stop()
})

describe('the upstream URL as clients see it', () => {
  it('erigon_nodeInfo names the upstream by scheme, host and port only', async () => {
    const answer = await rpc(edge.url, 'erigon_nodeInfo')
    const text = JSON.stringify(answer)
    expect(answer.result[0].protocols.edgetrace.upstream).toBe(origin)
    for (const secret of SECRETS) expect(text).not.toContain(secret)
    expect(text).not.toContain('/k7')
    const version = JSON.stringify(await rpc(edge.url, 'web3_clientVersion'))
    for (const secret of SECRETS) expect(version).not.toContain(secret)
  })

  it('an upstream error that quotes its URL is passed on with the URL cut to its origin', async () => {
    proxy.hooks.callError = (call) =>
      call.method === 'eth_protocolVersion'
        ? { code: -32001, message: `key S3CRETx is not valid for ${origin}/k7/S3CRETpath?x-api-key=S3CRETx.` }
        : undefined
    try {
      const answer = await rpc(edge.url, 'eth_protocolVersion')
      expect(answer.error).toEqual({ code: -32001, message: `key S3CRETx is not valid for ${origin}.` })
    } finally {
      delete proxy.hooks.callError
    }
  })
})
