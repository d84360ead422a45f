/**
 * edgetrace for the browser: the daemon in a Web Worker (connectEdgetraceWorker), an EIP-1193
 * provider over it (createEip1193Provider), an HTTP endpoint served by a service worker
 * (registerEdgetraceServiceWorker), or the daemon in the current context (createEdgetraceService).
 * Nothing here imports a Node built-in.
 */
export { type EdgetraceClient, EdgetraceStartError, connectEdgetraceWorker } from './connectEdgetraceWorker.js'
export {
  type EdgetraceConfig,
  type EdgetraceService,
  type EdgetraceStatus,
  createEdgetraceService,
} from './createEdgetraceService.js'
export {
  type EdgetraceEip1193Provider,
  type Eip1193RequestArguments,
  type PreviewHook,
  ProviderRpcError,
  createEip1193Provider,
} from './createEip1193Provider.js'
export type {
  AbiHook,
  Eip1193Wallet,
  TransactionsPreview,
  TransactionsPreviewResult,
  TypedData,
  TypedDataPreview,
  WalletPreview,
} from './previewWalletRequest.js'
export { createIdbStore } from './createIdbStore.js'
export { BEACON_PINS_DATABASE, createBeaconPins } from './createBeaconPins.js'
export type { BeaconPin, BeaconPinStore } from '../chain/beacon/connectPinnedLightClient.js'
export { type EdgetraceServiceWorker, registerEdgetraceServiceWorker } from './registerEdgetraceServiceWorker.js'
export { type ServeEdgetraceOptions, serveEdgetrace } from './serveEdgetrace.js'
export type { ServiceWorkerConfig } from './serviceWorkerProtocol.js'
export type { EdgetraceEvent, EdgetraceRemote } from './workerProtocol.js'
export type { ProgressEvent } from '../types/progress.js'
export type { JsonRpcErrorObject, JsonRpcResponse } from '../types/jsonRpc.js'
