import { ensurePendingFeed } from '../../exec/txpool/followPendingFeed.js'
import { defineNamespace } from '../defineNamespace.js'
import { content } from './content.js'
import { contentFrom } from './contentFrom.js'
import { status } from './status.js'

/** The seed's txpool namespace (txpool_inspect is not there: the reference answers it as unknown). */
export const txpoolNamespace = defineNamespace({
  name: 'txpool',
  summary: 'the transaction pool: pending, baseFee and queued sub-pools, sorted on verified state at the head',
  methods: [content, contentFrom, status],
  // The upstream's pending feed, where it has one (WebSocket), fills the pool between reads.
  serve: ensurePendingFeed,
})
