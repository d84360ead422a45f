/** Receives the JSON text of a response piece by piece; a promise means "wait before writing more". */
export type ChunkWriter = (chunk: string) => void | Promise<void>

/**
 * A method result too big to build in memory (struct logs of a million steps): `produce` writes its
 * JSON text as execution goes. If it fails after writing, it must first close what it opened; the
 * envelope then carries the error beside the partial result, as Erigon's streaming does.
 */
export class JsonStream {
  constructor(readonly produce: (write: ChunkWriter) => Promise<void>) {}
}
