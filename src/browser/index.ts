/**
 * edgetrace for the browser (also the package root's browser build): `createEdgetrace`, the same
 * library API as in Node with the daemon in a Web Worker; underneath, the worker's client
 * (connectEdgetraceWorker), an EIP-1193
 * provider over it (createEip1193Provider), an HTTP endpoint served by a service worker
 * (registerEdgetraceServiceWorker), or the daemon in the current context (createEdgetraceService).
 * Nothing here imports a Node built-in.
 */
export {
  type CreateBrowserEdgetraceOptions as CreateEdgetraceOptions,
  createBrowserEdgetrace as createEdgetrace,
} from './createBrowserEdgetrace.js'
export type {
  CallFrame,
  EdgetraceProvider,
  EdgetraceProviderEvents,
  PreviewCall,
  PreviewTransactionsOptions,
  PreviewTransactionsResult,
  PreviewTypedDataOptions,
  PreviewTypedDataResult,
  TraceOptions,
} from '../rpc/createEdgetraceProvider.js'
export type { Eip1193Provider } from '../types/eip1193.js'
export { BaseError } from '../errors/base.js'
export { UpstreamRpcError, UpstreamUnavailableError } from '../errors/upstream.js'
export { type EdgetraceClient, EdgetraceStartError, connectEdgetraceWorker } from './connectEdgetraceWorker.js'
export {
  type EdgetraceConfig,
  type EdgetraceSourceInput,
  type PageUpstream,
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
