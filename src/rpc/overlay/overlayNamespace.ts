import { defineNamespace } from '../defineNamespace.js'
import { callConstructor } from './callConstructor.js'
import { getLogs } from './getLogs.js'

/** overlay: the reference daemon's "what if" namespace — history re-executed with other code or state. */
export const overlayNamespace = defineNamespace({
  name: 'overlay',
  summary: 'replays with replaced contract code: overlay_callConstructor, overlay_getLogs',
  methods: [callConstructor, getLogs],
})
