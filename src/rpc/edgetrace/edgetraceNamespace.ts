import { defineNamespace } from '../defineNamespace.js'
import { trust } from './trust.js'

/**
 * edgetrace's own namespace: what it says of itself that a client needs to judge its answers (which
 * trust mode answers). Served on every listener whatever `--http.api` names: it holds no chain state
 * of its own and discloses nothing but what anchors the answers.
 */
export const edgetraceNamespace = defineNamespace({
  name: 'edgetrace',
  summary: 'edgetrace_trust: which trust mode answers (consensus, checkpoint, upstream) and what anchors it',
  methods: [trust],
  alwaysServed: true,
})
