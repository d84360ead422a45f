/** Receives the JSON text of a response piece by piece; a promise means "wait before writing more". */
export type ChunkWriter = (chunk: string) => void | Promise<void>
