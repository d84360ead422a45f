import { debugNamespace } from './debug/debugNamespace.js'
import { edgetraceNamespace } from './edgetrace/edgetraceNamespace.js'
import type { NamespaceDefinition } from './defineNamespace.js'
import { sidechainNamespace } from './sidechain/sidechainNamespace.js'
import { ethNamespace } from './eth/ethNamespace.js'
import { netNamespace } from './net/netNamespace.js'
import { otsNamespace } from './ots/otsNamespace.js'
import { overlayNamespace } from './overlay/overlayNamespace.js'
import { parityNamespace } from './parity/parityNamespace.js'
import { traceNamespace } from './trace/traceNamespace.js'
import { vendorNamespace } from './vendor/vendorNamespace.js'
import { txpoolNamespace } from './txpool/txpoolNamespace.js'
import { web3Namespace } from './web3/web3Namespace.js'

/**
 * Every namespace a full node's RPC daemon has — the only list of them. A namespace without methods
 * yet is known: its methods answer "not enabled" or "does not exist", never as if it were a typo.
 * A new method is a file in its namespace's folder and a line in its namespace's list; a new
 * namespace is a folder and a line here.
 */
export const NAMESPACES: readonly NamespaceDefinition[] = [
  ethNamespace,
  vendorNamespace,
  web3Namespace,
  netNamespace,
  debugNamespace,
  traceNamespace,
  txpoolNamespace,
  sidechainNamespace,
  otsNamespace,
  parityNamespace,
  overlayNamespace,
  edgetraceNamespace,
]
