import type { ChunkWriter } from '../types/chunkWriter.js'

/** Takes text that goes out only with the next content (or when the stream ends well). */
export type HoldWriter = (text: string) => void

/**
 * A method result too big to build in memory (struct logs of a million steps): `produce` writes its
 * JSON text as execution goes. Content (an element, a chunk of struct logs) goes to `write`;
 * structure around it (brackets, separators, keys such as `{"txHash":…,"result":`) goes to `hold`,
 * and is sent in front of the next content — or at the end of a stream that succeeds without any
 * (`[]`). So an error thrown before any content becomes a plain error response, never an empty
 * result beside an error. Once content has gone out, a failing producer must first close (through
 * `hold` or `write`) what it opened: the envelope then carries the error beside the partial result,
 * as Erigon's streaming does.
 */
export class JsonStream {
  constructor(readonly produce: (write: ChunkWriter, hold: HoldWriter) => Promise<void>) {}
}
