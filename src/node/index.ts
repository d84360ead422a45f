/**
 * The package root in Node (`import … from 'edgetrace'`): edgetrace as a library
 * (`createEdgetrace`, an EIP-1193 provider over a daemon in this process), the server
 * (`startEdgetrace`, what the CLI runs), the upstream clients, and the error classes. In the
 * browser the package root is `edgetrace/browser`'s, where `createEdgetrace` is the same API
 * running the daemon in a Web Worker.
 */
export { type CreateEdgetraceOptions, createNodeEdgetrace as createEdgetrace } from './createNodeEdgetrace.js'
export {
  type ExtraListeners,
  type ListenerInfo,
  type RunningEdgetrace,
  type StartEdgetraceParameters,
  startEdgetrace,
} from './startEdgetrace.js'
export {
  type CallFrame,
  type EdgetraceProvider,
  type EdgetraceProviderEvents,
  LIBRARY_API,
  type PreviewCall,
  type PreviewTransactionsOptions,
  type PreviewTransactionsResult,
  type PreviewTypedDataOptions,
  type PreviewTypedDataResult,
  type TraceOptions,
  type TypedData,
} from '../rpc/createEdgetraceProvider.js'
export { type SourceRegistry, createSourceRegistry } from '../sources/createSourceRegistry.js'
export { readStandardJson } from '../sources/readStandardJson.js'
export { readSourcesDir } from './readSourcesDir.js'
export type { AbiEntry, AbiParam, CodeRange, CreationCode, SourceContract, SourceFile } from '../sources/types.js'
export { type CreateUpstreamParameters, type WebSocketConstructor, createUpstream } from '../upstream/createUpstream.js'
export { type CreateEip1193UpstreamParameters, createEip1193Upstream } from '../upstream/createEip1193Upstream.js'
export { type CreateFallbackUpstreamParameters, createFallbackUpstream } from '../upstream/createFallbackUpstream.js'
export type { UpstreamOption, UpstreamSource } from '../upstream/resolveUpstream.js'
export type { Upstream, UpstreamStats } from '../upstream/types.js'
export type { Eip1193Provider, Eip1193RequestArguments } from '../types/eip1193.js'
export type { JsonRpcErrorObject, JsonRpcResponse } from '../types/jsonRpc.js'
export { BaseError, BaseErrorWithData, type BaseErrorParameters } from '../errors/base.js'
export { ProviderRpcError } from '../errors/provider.js'
export {
  ExecutionRevertedRpcError,
  InvalidParamsRpcError,
  InvalidRequestRpcError,
  MethodNotFoundRpcError,
  ParseRpcError,
  ResponseTooLargeRpcError,
  RpcError,
  ServerRpcError,
} from '../errors/rpc.js'
export { UpstreamRpcError, UpstreamUnavailableError } from '../errors/upstream.js'
export {
  BlockNotFoundError,
  CheckpointError,
  CodeHashMismatchError,
  HeaderVerificationError,
  ProofVerificationError,
} from '../errors/state.js'
