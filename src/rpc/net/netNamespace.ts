import { defineNamespace } from '../defineNamespace.js'
import { forwardUnverified } from '../forwardUnverified.js'
import { listening } from './listening.js'
import { version } from './version.js'

/**
 * The net namespace: net_version (the chain id) and net_listening answered locally; net_peerCount,
 * the upstream's peers (no chain state), forwarded as it is. Any other net_* method does not exist.
 */
export const netNamespace = defineNamespace({
  name: 'net',
  summary: "the network id and listening; net_peerCount is the upstream's answer",
  methods: [version, listening, forwardUnverified('net_peerCount')],
})
