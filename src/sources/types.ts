/** One source file of a compilation: its path as the compiler named it, and its text when known. */
export type SourceFile = { path: string; content: string | undefined }

/** A byte range of runtime code that the compiler leaves for the deployer to fill (immutables, linked libraries). */
export type CodeRange = { start: number; length: number }

/** One ABI entry, as much of it as source-level debugging reads. */
export type AbiParam = { type: string; name?: string; components?: AbiParam[] }
export type AbiEntry = { type: string; name?: string; inputs?: AbiParam[]; outputs?: AbiParam[] }

/**
 * One compiled contract in the neutral model every reader produces (solc standard JSON, Foundry,
 * Hardhat): its runtime code and what maps that code back to its sources.
 */
export type SourceContract = {
  name: string
  /** The source unit that declares it. */
  file: string
  /** The deployed (runtime) bytecode as compiled: immutables zero, libraries as placeholders (zeroed here). */
  runtime: Uint8Array
  /** solc's compressed runtime source map (`s:l:f:j:m;…`); '' when the build output had none. */
  sourceMap: string
  /** Ranges of `runtime` filled at deployment: immutables and linked-library addresses. */
  masked: CodeRange[]
  abi: AbiEntry[]
  /** solc's storageLayout, as given (decoded by later work). */
  storageLayout: unknown
  /** The compilation's sources by solc source id (the `f` of the source map). */
  sources: Map<number, SourceFile>
}
