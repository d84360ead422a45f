import { defineNamespace } from '../defineNamespace.js'
import { passThroughParams } from '../passThroughParams.js'
import { listening } from './listening.js'
import { version } from './version.js'

/** The net namespace: net_version and net_listening answered locally, the rest passed through. */
export const netNamespace = defineNamespace({
  name: 'net',
  summary: "the network id, listening; the rest is the upstream's answer",
  methods: [version, listening],
  fallback: (engine, method, params) => engine.upstream.request(method, passThroughParams(params)),
})
